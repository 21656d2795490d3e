"""clients/python/streaming_hub_client is what `make client` generates from schemas/openapi.json today:
regenerated into a temporary directory with the same generator and configuration, it matches file for file
(N73). After changing the API: `make openapi`, then `make client`."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]
CLIENT = REPO / "clients" / "python"
GENERATED = CLIENT / "streaming_hub_client"


@pytest.fixture(scope="module", autouse=True)
def migrated_database() -> None:
    """These tests read files and run the generator: no database."""


def generate(output: Path, document: Path = REPO / "schemas" / "openapi.json") -> None:
    bin_dir = str(Path(sys.executable).parent)  # the generator's formatting hooks call ruff by name
    done = subprocess.run([os.path.join(bin_dir, "openapi-python-client"), "generate", "--path", str(document),
                           "--meta", "none", "--config", str(CLIENT / "generator.yaml"), "--output-path", str(output),
                           "--overwrite"], capture_output=True, text=True, timeout=300, cwd=REPO,
                          env={**os.environ, "PATH": f"{bin_dir}{os.pathsep}{os.environ.get('PATH', '')}"})
    assert done.returncode == 0 and "Warning" not in done.stdout + done.stderr, done.stdout + done.stderr
    (output / "py.typed").touch()  # as `make client` does: the generator does not write the marker


def files(root: Path) -> dict[str, bytes]:
    return {str(path.relative_to(root)): path.read_bytes() for path in sorted(root.rglob("*"))
            if path.is_file() and ".ruff_cache" not in path.parts and "__pycache__" not in path.parts}


def stale(fresh: Path) -> list[str]:
    have, want = files(GENERATED), files(fresh)
    return sorted(name for name in have.keys() | want.keys() if have.get(name) != want.get(name))


def test_the_generated_client_is_current(tmp_path):
    generate(tmp_path / "streaming_hub_client")
    differ = stale(tmp_path / "streaming_hub_client")
    assert not differ, f"clients/python is stale, run `make client`: {differ[:10]}"


def test_a_changed_document_makes_it_stale(tmp_path):
    """The check above can fail: a document with one more operation's summary changed generates other files."""
    document = (REPO / "schemas" / "openapi.json").read_text()
    changed = tmp_path / "openapi.json"
    changed.write_text(document.replace('"summary": "Ping Subscription Route"', '"summary": "Ping It"', 1))
    assert changed.read_text() != document
    generate(tmp_path / "streaming_hub_client", changed)
    assert stale(tmp_path / "streaming_hub_client") == ["api/subscriptions/ping_subscription.py"]


def test_one_problem_model_serves_every_error_answer():
    """Every problem answer names `components.schemas.Problem` (N96): the client has one `Problem` model, not a
    copy per operation and status (628 of 764 model files before)."""
    import json

    document = json.loads((REPO / "schemas" / "openapi.json").read_text())
    for path, methods in document["paths"].items():
        for method, operation in methods.items():
            for status, answer in operation.get("responses", {}).items():
                schema = answer.get("content", {}).get("application/problem+json", {}).get("schema")
                if schema is not None:
                    first = schema.get("allOf", [schema])[0]
                    assert first == {"$ref": "#/components/schemas/Problem"}, f"{method} {path} {status}"
    # Only the answers that extend the problem (allOf: 409's existing_id, the dashboard's 422 details) keep a
    # model of their own.
    extended = {(path, method, status) for path, methods in document["paths"].items()
                for method, operation in methods.items() for status, answer in operation.get("responses", {}).items()
                if "allOf" in answer.get("content", {}).get("application/problem+json", {}).get("schema", {})}
    copies = {p.name for p in (GENERATED / "models").glob("*_response_[45][0-9][0-9].py")}
    assert len(copies) == len(extended) and (GENERATED / "models" / "problem.py").is_file()

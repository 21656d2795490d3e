"""The client as a tenant gets it (N96, issue 50): the wheel `make client` builds, installed in a fresh
virtualenv, type-checks the README's example under `mypy --strict` and runs it, sync and async, against a
live `hub api`.

The virtualenv holds the wheel alone; its dependencies (httpx, attrs, python-dateutil, standardwebhooks) are
borrowed from this environment by a path file, so the test needs no package index. The checkout's own
`streaming_hub` never reaches it: the example runs outside the repository with no PYTHONPATH."""

from __future__ import annotations

import os
import re
import subprocess
import sys
import sysconfig
import uuid
from pathlib import Path

import pytest

from devkit.live import live_api
from hub.auth.tokens import mint_token
from tests.conftest import ALL_PERMISSIONS

REPO = Path(__file__).resolve().parents[2]
CLIENT = REPO / "clients" / "python"
README_EXAMPLE = re.compile(r"```python\n(import asyncio\n.*?)```", re.S)


def example(readme: Path) -> str:
    [found] = README_EXAMPLE.findall(readme.read_text())
    return found


def run(*args: str | Path, env: dict[str, str] | None = None, cwd: Path | None = None) -> subprocess.CompletedProcess:
    done = subprocess.run([str(arg) for arg in args], capture_output=True, text=True, timeout=600, cwd=cwd,
                          env={**{k: v for k, v in os.environ.items() if k != "PYTHONPATH"}, **(env or {})})
    assert done.returncode == 0, f"{args}: {done.stdout[-3000:]}{done.stderr[-3000:]}"
    return done


@pytest.fixture(scope="module")
def installed(tmp_path_factory) -> Path:  # noqa: ANN001
    """A fresh virtualenv's python with the client's wheel installed (built as `make client` builds it)."""
    root = tmp_path_factory.mktemp("client")
    run(sys.executable, "-m", "build", "--no-isolation", "--sdist", "--wheel", "--outdir", root / "dist", CLIENT)
    [wheel] = (root / "dist").glob("streaming_hub_client-*.whl")
    assert list((root / "dist").glob("streaming_hub_client-*.tar.gz")), "no sdist"
    run(sys.executable, "-m", "venv", root / "venv")
    python = root / "venv" / "bin" / "python"
    run(python, "-m", "pip", "install", "--no-deps", "--no-index", "--quiet", wheel)
    site = run(python, "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])").stdout.strip()
    Path(site, "borrowed-dependencies.pth").write_text(sysconfig.get_paths()["purelib"] + "\n")
    return python


def test_both_readmes_show_the_same_example():
    assert example(REPO / "README.md") == example(CLIENT / "README.md")


def test_the_wheel_carries_the_typing_markers(installed):
    found = run(installed, "-c", "import streaming_hub, streaming_hub_client; "
                "print(streaming_hub.__file__); print(streaming_hub_client.__file__)", cwd=installed.parent).stdout
    for path in found.split():
        assert str(installed.parents[1]) in path  # from the wheel, not the checkout
        assert Path(path).with_name("py.typed").is_file()


def test_the_readme_example_passes_mypy_strict(installed, tmp_path):
    script = tmp_path / "example.py"
    script.write_text(example(REPO / "README.md"))
    mypy = Path(sys.executable).with_name("mypy")
    done = run(mypy, "--strict", "--no-incremental", "--python-executable", installed, script, cwd=tmp_path)
    assert "Success" in done.stdout


def test_the_readme_example_runs_against_a_live_hub(installed, tmp_path):
    script = tmp_path / "example.py"
    script.write_text(example(REPO / "README.md"))
    token = mint_token(tenant=f"client-{uuid.uuid4().hex[:8]}", permissions=ALL_PERMISSIONS)
    with live_api({"HUB_EGRESS_ALLOW_CIDRS": "127.0.0.0/8", "HUB_LOG_LEVEL": "WARNING"}) as base:
        done = run(installed, script, env={"HUB_URL": base, "TOKEN": token}, cwd=tmp_path)
    lines = done.stdout.splitlines()
    assert "404 not_found" in lines  # the sync part: a typed problem
    assert "first-webhook" in lines and "second-webhook" in lines  # the async part listed both

"""The committed ``schemas/openapi.json`` is exactly what the app generates."""

from __future__ import annotations

import difflib
from pathlib import Path

from hub.apidocs import render_openapi
from hub.app import create_app

COMMITTED = Path(__file__).resolve().parents[2] / "schemas" / "openapi.json"


def test_committed_openapi_document_matches_the_app():
    """A stale or missing file fails, naming the fix (`make openapi`)."""
    generated = render_openapi(create_app())
    assert COMMITTED.exists(), "schemas/openapi.json is missing: run `make openapi` and commit it"
    committed = COMMITTED.read_text(encoding="utf-8")
    if committed != generated:
        lines = difflib.unified_diff(committed.splitlines(keepends=True), generated.splitlines(keepends=True),
                                     "schemas/openapi.json (committed)", "generated from the app")
        diff = "".join(list(lines)[:60])
        raise AssertionError(f"schemas/openapi.json is stale: run `make openapi` and commit it\n{diff}")


def test_generation_is_stable():
    """Two fresh apps render byte-identical documents (sorted keys, one final newline)."""
    first, second = render_openapi(create_app()), render_openapi(create_app())
    assert first == second and first.endswith("}\n") and not first.endswith("\n\n")

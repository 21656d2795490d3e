"""Every bench script imports: a bench names helpers of other benches and of devkit, and a
rename there must not leave a bench broken until someone runs it."""

from __future__ import annotations

import importlib
from pathlib import Path

import pytest

BENCHES = sorted(path.stem for path in (Path(__file__).resolve().parent.parent / "bench").glob("*.py"))


@pytest.mark.parametrize("name", BENCHES)
def test_bench_module_imports(name: str) -> None:
    module = importlib.import_module(f"bench.{name}")
    assert module.__doc__, f"bench/{name}.py says what it measures"

"""docs/architecture.md's error-class table is the ErrorClass enum (R-X-STATE-07: errorClass is one frozen taxonomy)."""

from __future__ import annotations

from pathlib import Path

from hub.sinks.vocabulary import ErrorClass
from scripts.error_classes_table import END, START, meanings, render

README = Path(__file__).resolve().parents[2] / "docs" / "architecture.md"


def test_readme_table_matches_the_enum() -> None:
    text = README.read_text()
    table = text.split(START, 1)[1].split(END, 1)[0].strip()
    assert table == render(), "re-run python scripts/error_classes_table.py"


def test_every_class_is_explained() -> None:
    assert set(meanings()) == {member.value for member in ErrorClass}
    assert all(meanings().values()), "give each ErrorClass member a comment on its line"

"""The README stays true: every setting is in its configuration table."""

from __future__ import annotations

from pathlib import Path

from hub.config import Settings

README = Path(__file__).resolve().parent.parent / "README.md"


def test_every_setting_is_documented():
    text = README.read_text()
    missing = [f"HUB_{name.upper()}" for name in Settings.model_fields if f"`HUB_{name.upper()}`" not in text]
    assert not missing, f"add these to the README (python scripts/settings_table.py): {missing}"


def test_quick_start_names_the_two_commands():
    text = README.read_text()
    assert "make dev" in text and "make test" in text


def test_every_setting_says_what_it_means():
    """The configuration table's third column comes from each setting's docstring."""
    undocumented = [name for name, field in Settings.model_fields.items() if not field.description]
    assert not undocumented, f"give these settings a docstring: {undocumented}"
    text = README.read_text()
    for name, field in Settings.model_fields.items():
        assert f"| {field.description} |" in text, f"re-run python scripts/settings_table.py ({name})"

"""The docs stay true: every setting is in docs/configuration.md, as its group and docstring say; the README
stays short and names the two commands."""

from __future__ import annotations

import inspect
from pathlib import Path

from hub.config import Settings
from scripts.settings_table import render

ROOT = Path(__file__).resolve().parent.parent
README = ROOT / "README.md"
CONFIGURATION = ROOT / "docs" / "configuration.md"


def test_every_setting_is_documented():
    text = CONFIGURATION.read_text()
    missing = [f"HUB_{name.upper()}" for name in Settings.model_fields if f"`HUB_{name.upper()}`" not in text]
    assert not missing, f"add these to docs/configuration.md (python scripts/settings_table.py): {missing}"


def test_the_configuration_page_is_the_one_the_groups_write():
    assert CONFIGURATION.read_text() == render(), "re-run python scripts/settings_table.py"


def test_every_setting_says_what_it_means():
    undocumented = [name for name, field in Settings.model_fields.items() if not field.description]
    assert not undocumented, f"give these settings a docstring: {undocumented}"


def test_every_setting_belongs_to_exactly_one_group():
    owners: dict[str, list[str]] = {}
    for group in Settings.__bases__:
        for name in group.model_fields:
            owners.setdefault(name, []).append(group.__name__)
    assert sorted(owners) == sorted(Settings.model_fields)
    assert {name: groups for name, groups in owners.items() if len(groups) > 1} == {}


def test_no_settings_group_is_over_120_lines():
    sizes = {group.__name__: len(inspect.getsource(group).splitlines()) for group in Settings.__bases__}
    assert {name: size for name, size in sizes.items() if size > 120} == {}


def test_quick_start_names_the_two_commands():
    text = README.read_text()
    assert "make dev" in text and "make test" in text

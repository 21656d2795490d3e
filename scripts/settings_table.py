"""Write docs/configuration.md from the settings groups (run after adding or changing a setting)."""

from __future__ import annotations

import sys
from pathlib import Path

REPO_ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO_ROOT))

from hub.config import Settings  # noqa: E402

TARGET = REPO_ROOT / "docs" / "configuration.md"
INTRO = """# Configuration

Every setting is an environment variable with the `HUB_` prefix, also read from `.local/env` (which
`make stack` writes). Lists are comma-separated. The settings come in groups, one per feature and per
worker (`hub/settings/`); `hub.config.Settings` joins them. This page is written by
`python scripts/settings_table.py`, and `tests/test_readme.py` checks that it lists every setting.
"""


def _default(field) -> str:
    value = field.default_factory() if field.default_factory is not None else field.default
    if hasattr(value, "get_secret_value"):
        return "a dev-only value; set it in production"
    if isinstance(value, list):
        return ",".join(str(item) for item in value)
    return "unset" if value is None else str(value)


def group_table(group: type) -> str:
    rows = [f"## {group.__name__.removesuffix('Settings')}", "", (group.__doc__ or "").strip(), "",
            "| setting | default | meaning |", "|---|---|---|"]
    for name, field in group.model_fields.items():
        rows.append(f"| `HUB_{name.upper()}` | `{_default(field)}` | {field.description or ''} |")
    return "\n".join(rows)


def render() -> str:
    return INTRO + "\n" + "\n\n".join(group_table(group) for group in Settings.__bases__) + "\n"


def main() -> None:
    TARGET.write_text(render())


if __name__ == "__main__":
    main()

"""Rewrite the README's configuration table from the Settings model (run after adding a setting)."""

from __future__ import annotations

import re
import sys
from pathlib import Path

REPO_ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO_ROOT))

from hub.config import Settings  # noqa: E402

START, END = "<!-- settings-table:start -->", "<!-- settings-table:end -->"


def _default(field) -> str:
    value = field.default_factory() if field.default_factory is not None else field.default
    if hasattr(value, "get_secret_value"):
        return "a dev-only value; set it in production"
    if isinstance(value, list):
        return ",".join(str(item) for item in value)
    return str(value)


def render() -> str:
    rows = ["| setting | default | meaning |", "|---|---|---|"]
    for name, field in Settings.model_fields.items():
        rows.append(f"| `HUB_{name.upper()}` | `{_default(field)}` | {field.description or ''} |")
    return "\n".join(rows)


def main() -> None:
    readme = REPO_ROOT / "README.md"
    text = readme.read_text()
    pattern = re.compile(re.escape(START) + ".*?" + re.escape(END), re.S)
    readme.write_text(pattern.sub(f"{START}\n{render()}\n{END}", text))


if __name__ == "__main__":
    main()

"""Rewrite docs/architecture.md's error-class table from ``hub/sinks/vocabulary.py`` (the frozen taxonomy).

Each member's meaning is the comment on its line in ``ErrorClass``, so the enum stays the one source.
"""

from __future__ import annotations

import inspect
import re
import sys
from pathlib import Path

REPO_ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO_ROOT))

from hub.sinks.vocabulary import ErrorClass  # noqa: E402

START, END = "<!-- error-classes:start -->", "<!-- error-classes:end -->"
_MEMBER = re.compile(r'^\s+(\w+) = "(\w+)"\s+# (.*)$', re.M)


def meanings() -> dict[str, str]:
    """Each ErrorClass value and the comment that explains it."""
    found = {value: text.strip() for _, value, text in _MEMBER.findall(inspect.getsource(ErrorClass))}
    return {member.value: found.get(member.value, "") for member in ErrorClass}


def render() -> str:
    rows = ["| errorClass | meaning |", "|---|---|"]
    rows += [f"| `{value}` | {text} |" for value, text in meanings().items()]
    return "\n".join(rows)


def main() -> None:
    readme = REPO_ROOT / "docs" / "architecture.md"
    text = readme.read_text()
    pattern = re.compile(re.escape(START) + ".*?" + re.escape(END), re.S)
    readme.write_text(pattern.sub(lambda _m: f"{START}\n{render()}\n{END}", text))


if __name__ == "__main__":
    main()

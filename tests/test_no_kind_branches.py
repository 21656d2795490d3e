"""Nothing outside the providers branches on a sink kind: every per-kind fact is the kind's provider's.

Walks the AST of ``hub/`` and ``workers/`` and fails on a comparison (``==``, ``!=``, ``is``, ``is not``,
``in``, ``not in``) with a ``SinkKind`` member, or with a kind's name as a string, outside
``hub/providers``.
"""

from __future__ import annotations

import ast
from pathlib import Path

from hub.sinks.vocabulary import SinkKind

ROOT = Path(__file__).resolve().parent.parent
ALLOWED = ROOT / "hub" / "providers"
KIND_NAMES = {kind.value for kind in SinkKind}


def _names_a_kind(node: ast.AST) -> bool:
    if isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name) and node.value.id == "SinkKind":
        return node.attr in KIND_NAMES
    if isinstance(node, ast.Constant) and node.value in KIND_NAMES:
        return True
    if isinstance(node, (ast.Tuple, ast.List, ast.Set)):
        return any(_names_a_kind(element) for element in node.elts)
    return False


def kind_branches(tree: ast.AST) -> list[int]:
    """Line numbers of comparisons against a sink kind."""
    return [node.lineno for node in ast.walk(tree)
            if isinstance(node, ast.Compare) and any(_names_a_kind(side) for side in (node.left, *node.comparators))]


def test_the_detector_finds_kind_branches():
    source = ('if kind is SinkKind.sqs: pass\nx = kind == "pull"\ny = k in (SinkKind.sqs, SinkKind.eventbridge)\n'
              'z = frame_kind == METHOD\n')
    assert kind_branches(ast.parse(source)) == [1, 2, 3]


def test_no_kind_branches_outside_the_providers():
    found = []
    for package in ("hub", "workers"):
        for path in sorted((ROOT / package).rglob("*.py")):
            if ALLOWED in path.parents:
                continue
            found += [f"{path.relative_to(ROOT)}:{line}" for line in kind_branches(ast.parse(path.read_text()))]
    assert found == [], "branch on the provider instead: " + ", ".join(found)

"""OpenAPI documents as the contract tests read them: the contract found beside the checkout, its
operations by ``operationId`` and local ``$ref``s followed."""

from __future__ import annotations

import os
import subprocess
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any

import yaml

REPO = Path(__file__).resolve().parents[2]
CONTRACT_ENV = "STREAMING_HUB_CONTRACT"
CONTRACT_RELATIVE = Path("shared") / "contract" / "streaming-hub-openapi.yaml"
METHODS = ("get", "put", "post", "delete", "patch", "head", "options")
#: Response headers whose presence the contract fixes per status (compared case-insensitively).


def _checkout_roots() -> list[Path]:
    """This checkout, and the main checkout when this one is a git worktree."""
    roots = [REPO]
    try:
        common = subprocess.run(["git", "rev-parse", "--path-format=absolute", "--git-common-dir"], cwd=REPO,
                                capture_output=True, text=True, timeout=10, check=True).stdout.strip()
        roots.append(Path(common).parent)
    except (OSError, subprocess.SubprocessError):
        pass
    return roots


def contract_path() -> Path:
    """``$STREAMING_HUB_CONTRACT``, else ``../shared/contract/…`` beside the checkout (as CI lays it out)."""
    override = os.environ.get(CONTRACT_ENV)
    if override:
        return Path(override)
    candidates = [root.parent / CONTRACT_RELATIVE for root in _checkout_roots()]
    return next((path for path in candidates if path.exists()), candidates[0])


@cache
def load_contract() -> dict[str, Any]:
    path = contract_path()
    if not path.exists():
        raise FileNotFoundError(f"the contract is not at {path}; set {CONTRACT_ENV} to its path")
    return yaml.safe_load(path.read_text(encoding="utf-8"))


@dataclass(frozen=True)
class Operation:
    """One operation of a document, with the document it came from (to resolve references)."""

    method: str
    path: str
    spec: dict[str, Any]
    document: dict[str, Any]

    def resolve(self, node: Any) -> Any:
        return resolve(self.document, node)


def resolve(document: dict[str, Any], node: Any) -> Any:
    """``node`` with any chain of local ``$ref``s followed."""
    seen = 0
    while isinstance(node, dict) and "$ref" in node:
        target: Any = document
        for part in node["$ref"].removeprefix("#/").split("/"):
            target = target[part.replace("~1", "/").replace("~0", "~")]
        node = target
        seen += 1
        if seen > 20:
            raise ValueError(f"reference cycle at {node}")
    return node


def operations(document: dict[str, Any]) -> dict[str, Operation]:
    """Every operation of ``document`` by ``operationId``."""
    found: dict[str, Operation] = {}
    for path, item in document.get("paths", {}).items():
        for method in METHODS:
            if method in item:
                spec = dict(item[method])
                spec["parameters"] = [*item.get("parameters", []), *spec.get("parameters", [])]
                found[spec.get("operationId", f"{method} {path}")] = Operation(method, path, spec, document)
    return found

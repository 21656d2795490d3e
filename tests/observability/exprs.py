"""The PromQL expressions of deploy/observability (the alerting rules and the Grafana dashboard), and the
metric names they read."""

from __future__ import annotations

import json
import re
from pathlib import Path

import yaml

OBSERVABILITY = Path(__file__).resolve().parents[2] / "deploy" / "observability"
RULES = OBSERVABILITY / "alerts.yaml"
DASHBOARD = OBSERVABILITY / "grafana-dashboard.json"

# What is not a metric name: strings (first: they may hold braces), then label matchers, range and subquery
# durations, grouping label lists.
_STRINGS = re.compile(r'"(?:[^"\\]|\\.)*"')
_NOT_NAMES = re.compile(r"\{[^}]*\}|\[[^\]]*\]|\b(?:by|without|on|ignoring|group_left|group_right)\s*\([^)]*\)")
# A whole identifier not followed by "(" (a function's name is not a metric's).
_IDENTIFIER = re.compile(r"(?<![\w:.])([a-zA-Z_:][\w:]*)(?![\w:])(?!\s*\()")
_KEYWORDS = {"and", "or", "unless", "bool", "offset", "inf", "nan"}


def metric_names(expr: str) -> set[str]:
    """The metric names EXPR selects (PromQL: what is left without functions, keywords and label lists)."""
    bare = _NOT_NAMES.sub(" ", _STRINGS.sub('""', expr))
    return {name for name in _IDENTIFIER.findall(bare) if name.lower() not in _KEYWORDS}


def rule_exprs() -> dict[str, str]:
    """Each alert's expression, by alert name."""
    groups = yaml.safe_load(RULES.read_text())["groups"]
    return {rule["alert"]: rule["expr"] for group in groups for rule in group["rules"]}


def dashboard_exprs() -> dict[str, str]:
    """Each dashboard query, by "row / panel / refId"."""
    found, row = {}, ""
    for panel in json.loads(DASHBOARD.read_text())["panels"]:
        if panel["type"] == "row":
            row = panel["title"]
            continue
        for target in panel["targets"]:
            found[f"{row} / {panel['title']} / {target['refId']}"] = target["expr"]
    return found

"""What the rules and the dashboard are made of: the metric-name reader itself, the dashboard's rows."""

from __future__ import annotations

import json

import pytest

from tests.observability.exprs import DASHBOARD, dashboard_exprs, metric_names, rule_exprs


@pytest.fixture(scope="module", autouse=True)
def migrated_database() -> None:
    """These tests read files: no database (the suite's own fixture migrates one)."""


@pytest.mark.parametrize(("expr", "names"), [
    ('sum by (outcome) (rate(a_total{outcome="dead"}[10m])) / sum(rate(a_total[10m])) > 0.05', {"a_total"}),
    ("max(b) > 1e4 and deriv(max(b)[15m:1m]) > 0", {"b"}),
    ("histogram_quantile(0.99, sum by (le, route) (rate(c_bucket{route=~\"/x/{y}\"}[5m])))", {"c_bucket"}),
    ("min by (instance, check) (up) == bool 0 unless on (job) d offset 5m", {"up", "d"}),
])
def test_metric_names_of_an_expression(expr, names):
    assert metric_names(expr) == names


def test_the_dashboard_has_a_row_per_stage():
    rows = [panel["title"] for panel in json.loads(DASHBOARD.read_text())["panels"] if panel["type"] == "row"]
    assert [row.split(":")[0] for row in rows] == ["Ingest", "Delivery", "Seed 000", "Seed 003", "API", "Tenants (fair delivery, N98)"]
    assert all(metric_names(expr) for expr in {**rule_exprs(), **dashboard_exprs()}.values())

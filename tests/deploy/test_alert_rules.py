"""deploy/observability/alerts.yaml passes `promtool check rules` and its unit tests, `promtool test rules
alerts-test.yaml` (Debian's prometheus package, installed by deploy/local/tools.sh when missing); every rule
groups by deployment, has a traffic floor on its ratios and a runbook (N95); the chart renders it as a
PrometheusRule only when asked (N72)."""

from __future__ import annotations

import re
import shutil
import subprocess
from functools import lru_cache

import pytest
import yaml

from tests.deploy.helm import REPO, of_kind, rendered, template
from tests.observability.exprs import RULES, rule_exprs

UNIT_TESTS = RULES.parent / "alerts-test.yaml"
OPERATIONS = REPO / "docs" / "operations.md"


def rules() -> list[dict]:
    return [rule for group in yaml.safe_load(RULES.read_text())["groups"] for rule in group["rules"]]


@pytest.fixture(scope="module", autouse=True)
def migrated_database() -> None:
    """These tests read files and run promtool and helm: no database."""


@lru_cache
def promtool() -> str:
    done = subprocess.run(["bash", str(REPO / "deploy" / "local" / "tools.sh"), "promtool"], capture_output=True,
                          text=True, timeout=900)
    assert done.returncode == 0, done.stderr[-2000:]
    return shutil.which("promtool") or "/usr/bin/promtool"


def check_rules(path) -> subprocess.CompletedProcess:  # noqa: ANN001
    return subprocess.run([promtool(), "check", "rules", str(path)], capture_output=True, text=True, timeout=60)


def test_promtool_accepts_the_rules():
    done = check_rules(RULES)
    assert done.returncode == 0, done.stdout + done.stderr
    assert "SUCCESS" in done.stdout


def test_promtool_refuses_a_broken_rule(tmp_path):
    """The check above can fail: the same file with one expression cut short does not pass."""
    broken = tmp_path / "alerts.yaml"
    good = "max by (namespace, job) (streaming_hub_delivery_oldest_due_seconds) > 600"
    broken.write_text(RULES.read_text().replace(good, good.replace(") >", ")) >"), 1))
    assert broken.read_text() != RULES.read_text()
    assert check_rules(broken).returncode != 0


def test_the_chart_renders_the_rules_only_when_asked(tmp_path):
    assert not of_kind(rendered("small"), "PrometheusRule") and not of_kind(rendered("large"), "PrometheusRule")
    objects = template("--set", "observability.prometheusRule.enabled=true",
                       "--set", "observability.prometheusRule.labels.release=kps")
    [rule] = of_kind(objects, "PrometheusRule")
    assert rule["apiVersion"] == "monitoring.coreos.com/v1" and rule["metadata"]["labels"]["release"] == "kps"
    assert rule["spec"] == yaml.safe_load(RULES.read_text())  # the file's groups, untouched by templating
    spec = tmp_path / "rendered.yaml"
    spec.write_text(yaml.safe_dump(rule["spec"]))
    assert check_rules(spec).returncode == 0


def run_unit_tests(rules_text: str, tmp_path) -> subprocess.CompletedProcess:  # noqa: ANN001
    """`promtool test rules` on alerts-test.yaml against RULES_TEXT without its annotations: promtool compares
    rendered annotations word for word, and the cases are about expressions, labels and `for`."""
    stripped = yaml.safe_load(rules_text)
    for group in stripped["groups"]:
        for rule in group["rules"]:
            rule.pop("annotations", None)
    (tmp_path / "alerts.yaml").write_text(yaml.safe_dump(stripped))
    (tmp_path / "alerts-test.yaml").write_text(UNIT_TESTS.read_text())
    return subprocess.run([promtool(), "test", "rules", "alerts-test.yaml"], capture_output=True, text=True,
                          timeout=120, cwd=tmp_path)


def test_promtool_unit_tests_pass(tmp_path):
    done = run_unit_tests(RULES.read_text(), tmp_path)
    assert done.returncode == 0, done.stdout[-4000:] + done.stderr[-2000:]
    assert "SUCCESS" in done.stdout


def test_the_unit_tests_can_fail(tmp_path):
    """The same cases against the rules with the deliver tier's absent() cut fail."""
    cut = RULES.read_text().replace('or absent(up{job="streaming-hub-deliver"})', "", 1)
    assert cut != RULES.read_text()
    done = run_unit_tests(cut, tmp_path)
    assert done.returncode != 0 and "StreamingHubDeliverDown" in done.stdout + done.stderr


def test_every_alert_fires_stays_quiet_and_meets_its_absent_series():
    cases = yaml.safe_load(UNIT_TESTS.read_text())["tests"]
    for name in rule_exprs():
        checks = [(case["name"], check) for case in cases for check in case["alert_rule_test"]
                  if check["alertname"] == name]
        assert any(check["exp_alerts"] for _, check in checks), f"{name}: no case where it fires"
        assert any(not check["exp_alerts"] for _, check in checks), f"{name}: never quiet"
        assert any("absent" in case for case, _ in checks), f"{name}: no case with its series absent"


def test_every_process_kind_has_an_up_and_absent_rule():
    exprs = rule_exprs()
    for kind in ("api", "ingest", "deliver", "dlq-observer", "consumer-relay", "sweep"):
        [expr] = [expr for expr in exprs.values() if f'up{{job="streaming-hub-{kind}"}}' in expr]
        assert f'absent(up{{job="streaming-hub-{kind}"}})' in expr and "by (namespace, job)" in expr


def test_every_aggregation_keeps_the_deployment_apart():
    """Two deployments in one Prometheus: every `by (...)` keeps namespace and job, and nothing aggregates bare."""
    for name, expr in rule_exprs().items():
        assert not re.search(r"\b(?:sum|max|min|avg|count)\s*\(", expr), f"{name}: aggregates without by()"
        for labels in re.findall(r"\bby \(([^)]*)\)", expr):
            assert labels.split(", ")[:2] == ["namespace", "job"], f"{name}: by ({labels})"


def test_every_ratio_has_a_traffic_floor():
    for name, expr in rule_exprs().items():
        if " / " in expr:
            assert re.search(r"\band sum by \([^)]*\) \(increase\(", expr), f"{name}: no traffic floor"


def test_every_rule_links_its_runbook():
    anchors = set(re.findall(r'<a id="([^"]+)"></a>', OPERATIONS.read_text()))
    for rule in rules():
        url = rule["annotations"]["runbook_url"]
        assert url == f"docs/operations.md#alert-{rule['alert'].lower()}", rule["alert"]
        assert url.split("#")[1] in anchors, f"{rule['alert']}: no anchor in docs/operations.md"


def test_the_chart_makes_the_runbook_links_absolute():
    objects = template("--set", "observability.prometheusRule.enabled=true",
                       "--set", "observability.runbookBaseUrl=https://git.example.com/hub/blob/main/")
    [rule] = of_kind(objects, "PrometheusRule")
    urls = [r["annotations"]["runbook_url"] for group in rule["spec"]["groups"] for r in group["rules"]]
    assert urls and all(url.startswith("https://git.example.com/hub/blob/main/docs/operations.md#alert-") for url in urls)

"""deploy/observability/alerts.yaml passes `promtool check rules` (Debian's prometheus package, installed by
deploy/local/tools.sh when missing), and the chart renders it as a PrometheusRule only when asked (N72)."""

from __future__ import annotations

import shutil
import subprocess
from functools import lru_cache

import pytest
import yaml

from tests.deploy.helm import REPO, of_kind, rendered, template
from tests.observability.exprs import RULES


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
    broken.write_text(RULES.read_text().replace("max(streaming_hub_delivery_oldest_due_seconds) > 600",
                                                "max(streaming_hub_delivery_oldest_due_seconds > 600", 1))
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

"""The compose file, the Helm chart and docs/configuration.md name the same settings: every
setting a deployed process needs is set by both, and neither names one the settings object lacks."""

from __future__ import annotations

import re

import pytest
import yaml

from tests.deploy.helm import CHART, REPO, VALUES, component, env_of, of_kind, rendered, template
from tests.deploy.process_settings import NEEDS, SETTINGS

COMPOSE = REPO / "deploy" / "compose" / "compose.yaml"
CONFIGURATION = REPO / "docs" / "configuration.md"
HUB_NAME = re.compile(r"\bHUB_[A-Z0-9_]+\b")


@pytest.fixture(scope="module", autouse=True)
def migrated_database() -> None:
    """These tests read files and run helm: no database (the suite's own fixture migrates one)."""


def _documented() -> set[str]:
    return set(re.findall(r"^\| `(HUB_[A-Z0-9_]+)` \|", CONFIGURATION.read_text(), re.M))


def _compose_services() -> dict[str, set[str]]:
    services = yaml.safe_load(COMPOSE.read_text())["services"]
    return {name: set(service.get("environment") or {}) for name, service in services.items()
            if "build" in service}


def _chart_settings() -> set[str]:
    """What the chart itself sets, every optional Secret on (not what a values file adds under `env`)."""
    objects = template("--set", "rabbitmq.existingSecret=r", "--set", "secrets.dashboardCursorKeyKey=k")
    return {name for obj in of_kind(objects, "Deployment") + of_kind(objects, "Job") for name in env_of(obj)}


def test_the_configuration_page_is_the_settings_object():
    assert _documented() == SETTINGS


def test_compose_and_chart_name_the_same_settings():
    compose = set().union(*_compose_services().values())
    chart = _chart_settings()
    assert compose == chart, f"only in compose: {compose - chart}; only in the chart: {chart - compose}"
    assert chart <= _documented()


def test_compose_runs_every_process_with_what_it_needs():
    services = _compose_services()
    for process, needs in NEEDS.items():
        assert needs <= services[process], f"compose {process} lacks {needs - services[process]}"


def test_chart_sets_what_each_process_needs():
    for size in VALUES:
        objects = rendered(size)
        named = {component(obj): set(env_of(obj)) for obj in of_kind(objects, "Deployment") + of_kind(objects, "Job")}
        for process, needs in NEEDS.items():
            assert needs <= named[process], f"{size}: {process} lacks {needs - named[process]}"


def test_no_unknown_setting_named_anywhere():
    """Every HUB_* name in the compose file, the chart's templates and values, and the values files is a setting."""
    files = [COMPOSE, *VALUES.values(), *sorted(CHART.rglob("*.yaml")), *sorted(CHART.rglob("*.tpl"))]
    unknown = {f"{path.relative_to(REPO)}: {name}" for path in files
               for name in HUB_NAME.findall(path.read_text()) if name not in SETTINGS}
    assert not unknown, sorted(unknown)

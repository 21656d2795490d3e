"""The API surface is the explicit list in hub/app.py: no feature router is left out of it."""

from __future__ import annotations

import importlib
from pathlib import Path

import hub
from hub.app import READINESS_CHECKS, ROUTERS


def test_every_feature_router_module_is_listed():
    """A ``hub/<feature>/router.py`` that create_app does not include would serve nothing."""
    modules = sorted(path.parent.name for path in Path(hub.__path__[0]).glob("*/router.py"))
    assert modules, "the scan found no router modules"
    listed = {id(router) for router in ROUTERS}
    for name in modules:
        router = importlib.import_module(f"hub.{name}.router").router
        assert id(router) in listed, f"hub/{name}/router.py is not in hub.app.ROUTERS"


def test_readyz_runs_the_listed_checks_in_order(client):
    """R-getReadiness-01, N8: the body's `probes` are hub.app.READINESS_CHECKS, in that order."""
    names = [entry["name"] for entry in client.get("/readyz").json()["probes"]]
    assert names == [check().name for check in READINESS_CHECKS]
    assert names[:2] == ["database", "kafka"]

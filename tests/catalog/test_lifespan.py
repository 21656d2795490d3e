"""The API process runs the refresher in the background for the app's lifespan, only when asked to."""

from __future__ import annotations

import threading
import time

from fastapi.testclient import TestClient

from hub.app import create_app
from tests.catalog.conftest import event, manifest
from devkit.poll import wait_until


def _refresher_threads() -> list[threading.Thread]:
    return [thread for thread in threading.enumerate() if thread.name == "catalog-refresher" and thread.is_alive()]


def test_lifespan_runs_the_refresher_in_the_background(catalog_db, producer_server, configure, auth_headers):
    """R-getCatalog-02: with manifests configured the API keeps the snapshot fresh on the interval."""
    server = producer_server(manifest("ledger", [event("transaction", "posted")]))
    configure([server.url], catalog_refresher_enabled=True, catalog_refresh_seconds=0.2)

    def served_keys(client: TestClient) -> set[str]:
        body = client.get("/v1/catalog", headers=auth_headers).json()
        return {entry["eventKey"] for entry in body["events"] if entry["source"] == "ledger"}

    with TestClient(create_app()) as client:
        assert len(_refresher_threads()) == 1
        wait_until(lambda: served_keys(client) == {"transaction.posted"}, 15, 0.1, "the first refresh")
        server.publish(manifest("ledger", [event("transaction", "voided")]))
        wait_until(lambda: served_keys(client) == {"transaction.voided"}, 15, 0.1, "the changed manifest")
    wait_until(lambda: not _refresher_threads(), 10, 0.1, "the refresher thread to stop")


def test_no_refresher_without_manifests_or_when_disabled(catalog_db, producer_server, configure):
    """The default (no manifest URLs) and catalog_refresher_enabled=false start no thread."""
    configure([], catalog_refresher_enabled=True)
    with TestClient(create_app()):
        assert _refresher_threads() == []
    server = producer_server(manifest("ledger", [event("transaction", "posted")]))
    configure([server.url], catalog_refresher_enabled=False)
    with TestClient(create_app()):
        time.sleep(0.3)
        assert _refresher_threads() == []
    assert server.requests == 0

"""The refresher against real loopback manifest servers and a real (scratch) PostgreSQL."""

from __future__ import annotations

import threading
from datetime import UTC, datetime, timedelta

import pytest

from hub.catalog.feed import refresh_once
from tests.catalog.conftest import event, manifest
from devkit.pg import free_port

T0 = datetime(2030, 1, 1, 12, 0, tzinfo=UTC)


def catalog(client, auth_headers) -> dict:
    response = client.get("/v1/catalog", headers=auth_headers)
    assert response.status_code == 200, response.text
    return response.json()


def producer_row(body: dict, target: str) -> dict:
    rows = [row for row in body["producers"] if row["target"] == target]
    assert len(rows) == 1, body["producers"]
    return rows[0]


def producer_events(body: dict, source: str) -> list[dict]:
    return [entry for entry in body["events"] if entry["source"] == source]


def test_good_manifest_is_stored_and_served(catalog_db, producer_server, configure, client, auth_headers):
    """R-getCatalog-02, -19, -20: a valid manifest becomes the producer's entries; source and fetched_at set."""
    server = producer_server(manifest("ledger", [event("transaction", "posted", "1.2.0"),
                                                 event("account", "created")]))
    configure([server.url])
    report = refresh_once(now=T0)
    assert report.ran and report.outcomes == {server.target: "ok"}
    body = catalog(client, auth_headers)
    row = producer_row(body, server.target)
    assert row == {"target": server.target, "source": "ledger", "fetched_at": "2030-01-01T12:00:00Z",
                   "last_refresh_failed_at": None, "last_refresh_error_class": None}
    assert {entry["eventKey"] for entry in producer_events(body, "ledger")} == {"transaction.posted",
                                                                              "account.created"}


def test_schema_breaking_manifest_keeps_last_known_good(catalog_db, producer_server, configure, client,
                                                        auth_headers):
    """R-getCatalog-23 invalid_manifest, R-getCatalog-20, -22: a manifest breaking the schema changes nothing."""
    server = producer_server(manifest("ledger", [event("transaction", "posted")]))
    configure([server.url])
    refresh_once(now=T0)
    server.publish({"source": "ledger", "topic": "lerian.streaming.ledger",
                    "events": [{"resourceType": "transaction", "eventType": "voided"}]})  # no schemaVersion
    report = refresh_once(now=T0 + timedelta(minutes=1))
    assert report.outcomes == {server.target: "invalid_manifest"}
    body = catalog(client, auth_headers)
    assert [entry["eventKey"] for entry in producer_events(body, "ledger")] == ["transaction.posted"]
    row = producer_row(body, server.target)
    assert row["fetched_at"] == "2030-01-01T12:00:00Z"
    assert row["last_refresh_failed_at"] == "2030-01-01T12:01:00Z"
    assert row["last_refresh_error_class"] == "invalid_manifest"


def test_unreachable_producer_is_fetch_failed(catalog_db, configure, client, auth_headers):
    """R-getCatalog-23 fetch_failed (unreachable), R-getCatalog-19/-20: source and fetched_at stay null."""
    port = free_port()  # nothing listens here
    configure([f"http://127.0.0.1:{port}/manifest.json"])
    report = refresh_once(now=T0)
    assert report.outcomes == {f"127.0.0.1:{port}": "fetch_failed"}
    row = producer_row(catalog(client, auth_headers), f"127.0.0.1:{port}")
    assert row == {"target": f"127.0.0.1:{port}", "source": None, "fetched_at": None,
                   "last_refresh_failed_at": "2030-01-01T12:00:00Z", "last_refresh_error_class": "fetch_failed"}


def test_slow_producer_past_the_timeout_is_fetch_failed(catalog_db, producer_server, configure):
    """R-getCatalog-23: a producer that answers after the fetch timeout counts as fetch_failed."""
    server = producer_server(manifest("slowpoke", [event("job", "done")]))
    server.delay_seconds = 2.5
    configure([server.url], catalog_fetch_timeout_seconds=0.5)
    assert refresh_once(now=T0).outcomes == {server.target: "fetch_failed"}
    server.delay_seconds = 0
    assert refresh_once(now=T0 + timedelta(seconds=1)).outcomes == {server.target: "ok"}


@pytest.mark.parametrize(("status", "body"), [(500, b'{"source": "x"}'), (404, b"not found"),
                                              (200, b"<html>not json</html>"), (200, b"")])
def test_non_2xx_and_unparseable_bodies_are_fetch_failed(catalog_db, producer_server, configure, status, body):
    """R-getCatalog-23: a non-2xx answer or a body that is not JSON is fetch_failed (never invalid_manifest)."""
    server = producer_server()
    server.status, server.body = status, body
    configure([server.url])
    assert refresh_once(now=T0).outcomes == {server.target: "fetch_failed"}


def test_recovery_moves_fetched_at_and_keeps_last_failure(catalog_db, producer_server, configure, client,
                                                          auth_headers):
    """R-getCatalog-21, -22: after a failure a success moves fetched_at; last_refresh_failed_at is not cleared."""
    server = producer_server(manifest("ledger", [event("transaction", "posted")]))
    configure([server.url])
    refresh_once(now=T0)
    server.status = 503
    assert refresh_once(now=T0 + timedelta(minutes=1)).outcomes == {server.target: "fetch_failed"}
    assert refresh_once(now=T0 + timedelta(minutes=2)).outcomes == {server.target: "fetch_failed"}
    server.status = 200
    assert refresh_once(now=T0 + timedelta(minutes=3)).outcomes == {server.target: "ok"}
    row = producer_row(catalog(client, auth_headers), server.target)
    assert row["fetched_at"] == "2030-01-01T12:03:00Z"
    assert row["last_refresh_failed_at"] == "2030-01-01T12:02:00Z"
    assert row["last_refresh_error_class"] == "fetch_failed"


def test_breaker_opens_then_half_opens(catalog_db, producer_server, configure, client, auth_headers):
    """R-getCatalog-23 breaker_open: open after N failures, no fetch while open, one trial after the cool-down."""
    server = producer_server(manifest("ledger", [event("transaction", "posted")]))
    server.status = 500
    configure([server.url], catalog_breaker_threshold=2, catalog_breaker_cooldown_seconds=60)
    at = lambda seconds: T0 + timedelta(seconds=seconds)  # noqa: E731
    assert refresh_once(now=at(0)).outcomes[server.target] == "fetch_failed"
    assert refresh_once(now=at(10)).outcomes[server.target] == "fetch_failed"  # second failure: opens
    assert server.requests == 2
    assert refresh_once(now=at(20)).outcomes[server.target] == "breaker_open"
    assert refresh_once(now=at(69)).outcomes[server.target] == "breaker_open"
    assert server.requests == 2, "no fetch may run while the breaker is open"
    row = producer_row(catalog(client, auth_headers), server.target)
    assert row["last_refresh_error_class"] == "breaker_open" and row["fetched_at"] is None
    assert row["last_refresh_failed_at"] == "2030-01-01T12:01:09Z"
    # Half-open after the cool-down: one trial fetch; it fails, so the breaker re-opens at once.
    assert refresh_once(now=at(71)).outcomes[server.target] == "fetch_failed"
    assert server.requests == 3
    assert refresh_once(now=at(100)).outcomes[server.target] == "breaker_open"
    assert server.requests == 3
    # The next trial succeeds: the breaker closes and later rounds fetch every time.
    server.status = 200
    assert refresh_once(now=at(132)).outcomes[server.target] == "ok"
    server.status = 500
    assert refresh_once(now=at(140)).outcomes[server.target] == "fetch_failed"
    assert refresh_once(now=at(150)).outcomes[server.target] == "fetch_failed"
    assert server.requests == 6
    assert refresh_once(now=at(160)).outcomes[server.target] == "breaker_open"


def test_persist_failure_keeps_entries_and_spares_the_breaker(catalog_db, producer_server, configure, client,
                                                              auth_headers):
    """R-getCatalog-23 persist_failed: a valid manifest PostgreSQL refuses (a NUL in text) keeps the old entries."""
    server = producer_server(manifest("ledger", [event("transaction", "posted")]))
    configure([server.url], catalog_breaker_threshold=1)
    refresh_once(now=T0)
    server.publish(manifest("ledger", [event("transaction", "voided", description="bad \u0000 byte")]))
    assert refresh_once(now=T0 + timedelta(minutes=1)).outcomes == {server.target: "persist_failed"}
    # With a threshold of 1 a producer fault would have opened the breaker; the hub's own fault does not.
    assert refresh_once(now=T0 + timedelta(minutes=2)).outcomes == {server.target: "persist_failed"}
    assert server.requests == 3
    body = catalog(client, auth_headers)
    assert [entry["eventKey"] for entry in producer_events(body, "ledger")] == ["transaction.posted"]
    row = producer_row(body, server.target)
    assert row["last_refresh_error_class"] == "persist_failed" and row["fetched_at"] == "2030-01-01T12:00:00Z"


def test_replacement_is_atomic_per_producer(catalog_db, producer_server, configure, client, auth_headers):
    """R-getCatalog-02: a new manifest replaces the producer's entries wholesale; the other producer is untouched."""
    ledger = producer_server(manifest("ledger", [event("transaction", "posted"), event("transaction", "voided")]))
    crm = producer_server(manifest("crm", [event("customer", "created")]))
    configure([ledger.url, crm.url])
    refresh_once(now=T0)
    ledger.publish(manifest("ledger", [event("transaction", "reversed")]))
    crm.status = 500
    outcomes = refresh_once(now=T0 + timedelta(minutes=1)).outcomes
    assert outcomes == {ledger.target: "ok", crm.target: "fetch_failed"}
    body = catalog(client, auth_headers)
    assert [entry["eventKey"] for entry in producer_events(body, "ledger")] == ["transaction.reversed"]
    assert [entry["eventKey"] for entry in producer_events(body, "crm")] == ["customer.created"]


def test_two_refreshers_racing_only_one_refreshes(catalog_db, producer_server, configure):
    """Only one refresher works at a time across processes: the PostgreSQL advisory lock admits one round."""
    server = producer_server(manifest("ledger", [event("transaction", "posted")]))
    server.delay_seconds = 1.5  # keeps the first round inside its lock while the second one tries
    configure([server.url], catalog_fetch_timeout_seconds=5)
    reports = []
    start = threading.Barrier(2)

    def run() -> None:
        start.wait()
        reports.append(refresh_once(now=T0))

    threads = [threading.Thread(target=run) for _ in range(2)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(30)
    assert sorted(report.ran for report in reports) == [False, True]
    assert server.requests == 1
    # Once the lock is free again a later round runs.
    assert refresh_once(now=T0 + timedelta(minutes=1)).ran


def test_only_due_rounds_skip_recent_producers(catalog_db, producer_server, configure):
    """Several pods taking turns on the lock still fetch each producer about once per interval."""
    server = producer_server(manifest("ledger", [event("transaction", "posted")]))
    configure([server.url], catalog_refresh_seconds=30)
    assert refresh_once(now=T0, only_due=True).outcomes == {server.target: "ok"}
    assert refresh_once(now=T0 + timedelta(seconds=5), only_due=True).outcomes == {server.target: "not_due"}
    assert refresh_once(now=T0 + timedelta(seconds=30), only_due=True).outcomes == {server.target: "ok"}
    assert server.requests == 2


def test_removed_producer_is_retired_but_its_events_stay_stale(catalog_db, producer_server, configure, client,
                                                               auth_headers):
    """R-getCatalog-13: a producer no longer configured loses its producers[] row; its entries stay as stale."""
    ledger = producer_server(manifest("ledger", [event("transaction", "posted")]))
    crm = producer_server(manifest("crm", [event("customer", "created")]))
    configure([ledger.url, crm.url])
    refresh_once(now=T0)
    configure([crm.url])
    refresh_once(now=T0 + timedelta(minutes=1))
    body = catalog(client, auth_headers)
    assert [row["target"] for row in body["producers"]] == [crm.target]
    stale = producer_events(body, "ledger")
    assert [entry["eventKey"] for entry in stale] == ["transaction.posted"]
    assert "ledger" not in {row["source"] for row in body["producers"]}
    # A live producer that declares the retired source takes its place; the stale entries go.
    moved = producer_server(manifest("ledger", [event("transaction", "settled")]))
    configure([crm.url, moved.url])
    refresh_once(now=T0 + timedelta(minutes=2))
    body = catalog(client, auth_headers)
    assert [entry["eventKey"] for entry in producer_events(body, "ledger")] == ["transaction.settled"]
    assert producer_row(body, moved.target)["source"] == "ledger"


def test_a_source_declared_by_another_live_producer_is_invalid(catalog_db, producer_server, configure, client,
                                                               auth_headers):
    """R-getCatalog-19: producers[].source joins events[].source one to one, so a second claimant is refused."""
    first = producer_server(manifest("ledger", [event("transaction", "posted")]))
    second = producer_server(manifest("ledger", [event("transaction", "voided")], topic="lerian.streaming.other"))
    configure([first.url, second.url])
    assert refresh_once(now=T0).outcomes == {first.target: "ok", second.target: "invalid_manifest"}
    body = catalog(client, auth_headers)
    assert [entry["eventKey"] for entry in producer_events(body, "ledger")] == ["transaction.posted"]
    assert producer_row(body, second.target)["source"] is None


def test_multi_tenant_targets_are_service_labels(catalog_db, producer_server, configure, client, auth_headers):
    """R-getCatalog-18: multi-tenant entries are `label=url` and the target is the label, never a ce-source."""
    server = producer_server(manifest("ledger", [event("transaction", "posted")]))
    configure([f"ledger-svc={server.url}"], catalog_multi_tenant=True)
    assert refresh_once(now=T0).outcomes == {"ledger-svc": "ok"}
    row = producer_row(catalog(client, auth_headers), "ledger-svc")
    assert row["source"] == "ledger"


def test_readiness_degraded_while_a_refresh_fails(catalog_db, producer_server, configure, client):
    """docs/contract-notes.md N8: a producer whose last refresh failed after its last success makes /readyz degraded."""
    server = producer_server(manifest("ledger", [event("transaction", "posted")]))
    configure([server.url])

    def catalog_readiness() -> dict:
        probes = {probe["name"]: probe for probe in client.get("/readyz").json()["probes"]}
        return probes["catalog"]

    refresh_once(now=T0)
    assert catalog_readiness()["state"] == "healthy"
    server.status = 500
    refresh_once(now=T0 + timedelta(minutes=1))
    probe = catalog_readiness()
    assert probe["state"] == "degraded" and "fetch_failed" in probe["detail"]
    assert server.target not in probe["detail"]
    server.status = 200
    refresh_once(now=T0 + timedelta(minutes=2))
    assert catalog_readiness()["state"] == "healthy"

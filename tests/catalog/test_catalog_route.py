"""GET /v1/catalog: the body exactly per contract, on a scratch database so whole-body assertions hold."""

from __future__ import annotations

import time
from datetime import UTC, datetime

from hub.catalog.feed import refresh_once
from hub.catalog.service import catalog_has_producer_events, known_event_keys
from hub.db import get_engine, session_scope
from hub.lifecycle.event_types import HUB_LIFECYCLE_EVENTS
from tests.catalog.conftest import event, manifest
from tests.catalog.contract import assert_matches
from devkit.httpserver import json_reply, serve
from devkit.pg import free_port

T0 = datetime(2030, 1, 1, 12, 0, tzinfo=UTC)
HUB_EVENT = {
    "eventKey": "hub.destination.disabled", "source": "streaming-hub", "resourceType": "destination",
    "eventType": "hub.destination.disabled", "topic": "lerian.streaming.streaming-hub", "schemaVersion": "1.0.0",
    "schemaMajor": 1,
    "description": "A subscription's destination was auto-disabled after sustained delivery failure.",
}


def get_catalog(client, headers) -> dict:
    response = client.get("/v1/catalog", headers=headers)
    assert response.status_code == 200, response.text
    assert response.headers["content-type"] == "application/json"
    assert_matches("CatalogResponse", response.json())
    return response.json()


def test_empty_catalog_is_200_with_only_the_hub_events(catalog_db, client, auth_headers):
    """R-getCatalog-04, -09, R-getCatalog-13: an empty snapshot is no error; producers is []; hub.* always there."""
    body = get_catalog(client, auth_headers)
    assert body == {"events": [HUB_EVENT], "producers": []}


def test_hub_lifecycle_topic_follows_the_prefix(catalog_db, client, auth_headers, override_settings):
    """R-getCatalog-11, -14: hub.* events keep their type as eventKey and ride on <prefix>streaming-hub."""
    override_settings(kafka_topic_prefix="acme.events.")
    events = get_catalog(client, auth_headers)["events"]
    assert [entry["topic"] for entry in events] == ["acme.events.streaming-hub"]
    assert {entry["eventKey"] for entry in events} == {e["eventKey"] for e in HUB_LIFECYCLE_EVENTS}


def test_body_shape_and_event_fields(catalog_db, producer_server, configure, client, auth_headers):
    """R-getCatalog-06, -10, -11, -12, -14, -16, -17: exact properties; dataSchema only when given."""
    server = producer_server(manifest("ledger", [
        event("transaction", "posted", "1.2.0", dataSchema="https://schemas.example.com/transaction/posted/1.json"),
        event("account", "posted"),
    ]))
    configure([server.url])
    refresh_once(now=T0)
    body = get_catalog(client, auth_headers)
    assert set(body) == {"events", "producers"}
    ledger = {entry["eventKey"]: entry for entry in body["events"] if entry["source"] == "ledger"}
    assert ledger == {
        "account.posted": {"eventKey": "account.posted", "source": "ledger", "resourceType": "account",
                           "eventType": "posted", "topic": "lerian.streaming.ledger", "schemaVersion": "1.0.0",
                           "schemaMajor": 1, "description": "account posted"},
        "transaction.posted": {"eventKey": "transaction.posted", "source": "ledger", "resourceType": "transaction",
                               "eventType": "posted", "topic": "lerian.streaming.ledger", "schemaVersion": "1.2.0",
                               "schemaMajor": 1,
                               "dataSchema": "https://schemas.example.com/transaction/posted/1.json",
                               "description": "transaction posted"},
    }
    assert set(body["producers"][0]) == {"target", "source", "fetched_at", "last_refresh_failed_at",
                                         "last_refresh_error_class"}


def test_data_schema_is_never_fetched(catalog_db, producer_server, configure, client, auth_headers):
    """R-getCatalog-16: dataSchema is an opaque passthrough; the hub never resolves it."""
    schema_host = producer_server({"type": "object"})
    server = producer_server(manifest("ledger", [event("transaction", "posted", dataSchema=schema_host.url)]))
    configure([server.url])
    refresh_once(now=T0)
    served = [e for e in get_catalog(client, auth_headers)["events"] if e["source"] == "ledger"]
    assert served[0]["dataSchema"] == schema_host.url
    assert schema_host.requests == 0


def test_several_majors_and_minors(catalog_db, producer_server, configure, client, auth_headers):
    """R-getCatalog-08, -15: one entry per major, at the highest minor (numeric, release above pre-release)."""
    versions = ["1.0.0", "1.2.0", "1.10.0", "1.9.7", "2.0.0-rc.1", "2.0.0", "2.1.3", "3.0.0-beta.2", "3.0.0-beta.10"]
    server = producer_server(manifest("ledger", [event("transaction", "posted", v) for v in versions]))
    configure([server.url])
    refresh_once(now=T0)
    served = [e for e in get_catalog(client, auth_headers)["events"] if e["source"] == "ledger"]
    assert [(e["schemaMajor"], e["schemaVersion"]) for e in served] == [(1, "1.10.0"), (2, "2.1.3"),
                                                                        (3, "3.0.0-beta.2")]


def test_ordering_of_events_and_producers(catalog_db, producer_server, configure, client, auth_headers):
    """R-getCatalog-07, -09, -19: events by topic, major, eventType, resourceType; producers by target."""
    zeta = producer_server(manifest("zeta", [event("b", "x", "2.0.0"), event("a", "y"), event("b", "y"),
                                             event("a", "x")], topic="a.topic"))
    alpha = producer_server(manifest("alpha", [event("q", "w")], topic="b.topic"))
    configure([zeta.url, alpha.url])
    refresh_once(now=T0)
    body = get_catalog(client, auth_headers)
    keys = [(e["topic"], e["schemaMajor"], e["eventType"], e["resourceType"]) for e in body["events"]]
    assert keys == [("a.topic", 1, "x", "a"), ("a.topic", 1, "y", "a"), ("a.topic", 1, "y", "b"),
                    ("a.topic", 2, "x", "b"), ("b.topic", 1, "w", "q"),
                    ("lerian.streaming.streaming-hub", 1, "hub.destination.disabled", "destination")]
    assert [row["target"] for row in body["producers"]] == sorted([zeta.target, alpha.target])
    assert {row["source"] for row in body["producers"]} == {"zeta", "alpha"}


def test_byte_identical_for_every_tenant(catalog_db, producer_server, configure, client, make_token):
    """R-getCatalog-03: the same bytes whichever tenant (or delegated party) authenticates."""
    server = producer_server(manifest("ledger", [event("transaction", "posted"), event("account", "created")]))
    configure([server.url])
    refresh_once(now=T0)
    bodies = {
        client.get("/v1/catalog", headers={"Authorization": f"Bearer {token}"}).content
        for token in (make_token(), make_token(tenant_id="t-other-tenant"),
                      make_token(tenant_id="t-third", delegated_scope="cGFydHk="))
    }
    assert len(bodies) == 1 and b"transaction.posted" in next(iter(bodies))


def test_rate_limit_headers_and_429(catalog_db, client, auth_headers, override_settings):
    """R-getCatalog-05, R-X-RATE-03: 200 carries X-RateLimit-*; the reads allowance spent → 429 rate_limited."""
    override_settings(rate_limit_reads=2)
    first = client.get("/v1/catalog", headers=auth_headers)
    assert first.status_code == 200
    assert first.headers["X-RateLimit-Limit"] == "2" and first.headers["X-RateLimit-Remaining"] == "1"
    assert int(first.headers["X-RateLimit-Reset"]) > 0
    assert client.get("/v1/catalog", headers=auth_headers).headers["X-RateLimit-Remaining"] == "0"
    refused = client.get("/v1/catalog", headers=auth_headers)
    assert refused.status_code == 429 and refused.json()["code"] == "rate_limited"
    assert int(refused.headers["Retry-After"]) >= 1 and refused.headers["X-RateLimit-Remaining"] == "0"


def test_authentication_and_permission(catalog_db, client, make_token):
    """R-getCatalog-01: no token → 401 AUT-0006; bad token → 401 AUT-0007; no catalog:get → 403 AUT-1020."""
    missing = client.get("/v1/catalog")
    assert missing.status_code == 401 and missing.json()["code"] == "AUT-0006"
    garbage = client.get("/v1/catalog", headers={"Authorization": "Bearer not-a-jwt"})
    assert garbage.status_code == 401 and garbage.json()["code"] == "AUT-0007"
    denied = client.get("/v1/catalog", headers={"Authorization": f"Bearer {make_token(permissions=['events:get'])}"})
    assert denied.status_code == 403 and denied.json()["code"] == "AUT-1020"
    assert "catalog:get" in denied.json()["detail"]
    assert denied.headers["content-type"] == "application/problem+json"


def test_lookups_for_subscriptions(catalog_db, producer_server, configure):
    """R-getCatalog-12: the (eventKey, major) index subscriptions validate event_types against."""
    with session_scope() as session:
        assert catalog_has_producer_events(session) is False
        assert known_event_keys(session) == {("hub.destination.disabled", 1): frozenset({"streaming-hub"})}
    server = producer_server(manifest("ledger", [event("transaction", "posted", "2.3.0"),
                                                 event("transaction", "posted")]))
    configure([server.url])
    refresh_once(now=T0)
    with session_scope() as session:
        assert catalog_has_producer_events(session) is True
        keys = known_event_keys(session)
    assert keys[("transaction.posted", 1)] == keys[("transaction.posted", 2)] == frozenset({"ledger"})


def test_access_manager_and_rate_limiter_outages(catalog_db, client, auth_headers, override_settings):
    """R-getCatalog-01: 503 AUT-0033 / 504 AUT-1021 from the decision service, 503 rate_limiter_unavailable."""
    def undecided(method, path, body):
        return json_reply(500, {"error": "boom"})

    def slow(method, path, body):
        time.sleep(1.5)
        return json_reply(200, {"allow": True})

    with serve(undecided) as base:
        override_settings(decision_service_url=f"{base}/decide")
        response = client.get("/v1/catalog", headers=auth_headers)
        assert response.status_code == 503 and response.json()["code"] == "AUT-0033"
        assert "Retry-After" in response.headers
    with serve(slow) as base:
        override_settings(decision_service_url=f"{base}/decide", decision_service_timeout_seconds=0.3)
        response = client.get("/v1/catalog", headers=auth_headers)
        assert response.status_code == 504 and response.json()["code"] == "AUT-1021"
    override_settings(decision_service_url="",
                      database_url=f"postgresql+psycopg://hub:hub@127.0.0.1:{free_port()}/nothing")
    get_engine.cache_clear()
    response = client.get("/v1/catalog", headers=auth_headers)
    assert response.status_code == 503 and response.json()["code"] == "rate_limiter_unavailable"
    assert int(response.headers["Retry-After"]) >= 1
    get_engine().dispose()
    get_engine.cache_clear()

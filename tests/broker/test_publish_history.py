"""Publish and history against the real Kafka, ingest and PostgreSQL (seed 003, E1, E6, E7)."""

from __future__ import annotations

import orjson

from hub.broker.projection import BROKER_SOURCE
from tests.broker.conftest import broker_token
from tests.ingest.conftest import rows

SEED_BODY = {"type": "order.shipped", "data": {"carrier": "DHL", "tracking": "JD014600003SE"}}


def test_seed_publish_example_is_stored_as_a_cloudevent_and_read_back(broker, ingest):
    response = broker.call("POST", "/data/orders:1042", content=orjson.dumps(SEED_BODY),
                           headers={"content-type": "application/json"})
    assert response.status_code == 201, response.text
    event = response.json()["data"]
    assert set(event) == {"id", "topic", "type", "data", "ts"}
    assert (event["topic"], event["type"], event["data"]) == ("orders:1042", "order.shipped", SEED_BODY["data"])
    # Read-your-writes: the history right after the answer holds it.
    assert broker.history("orders", type="order.shipped", limit=20) == [event]
    [(source, event_type, attributes, kafka_topic)] = rows(
        "SELECT source, event_type, attributes, kafka_topic FROM event_log WHERE tenant_id = %s AND ce_id = %s",
        (broker.tenant, event["id"]))
    assert (source, event_type) == (BROKER_SOURCE, "order.shipped")
    assert attributes["subject"] == "orders:1042" and attributes["partitionkey"] == "orders"
    assert kafka_topic.endswith("event-broker")


def test_history_is_the_subtree_newest_first(broker, ingest):
    first = broker.publish("orders", data={"n": 1})
    second = broker.publish("orders:1042", data={"n": 2})
    third = broker.publish("orders:1042:lines", event_type="line.added", data={"n": 3})
    broker.publish("ordersx", data={"n": 4})
    broker.publish("orders:10420", data={"n": 5})
    assert [e["id"] for e in broker.history("orders")][-3:] == [third["id"], second["id"], first["id"]]
    assert [e["id"] for e in broker.history("orders:1042")] == [third["id"], second["id"]]
    assert [e["id"] for e in broker.history("orders:1042", type="line.added")] == [third["id"]]
    assert broker.history("orders", limit=1)[0]["data"] == {"n": 5}


def test_another_domain_is_refused_and_another_tenants_events_never_show(broker, ingest, client, tenant):
    mine = broker.publish("chat:room-7", data={"mine": True})
    response = broker.call("GET", "/data/chat", domain="someone-else")
    assert response.status_code == 403 and response.json()["code"] == "domain_mismatch"
    other = broker.__class__(client, f"{tenant}-other", broker_token(f"{tenant}-other"))
    theirs = other.publish("chat:room-7", data={"mine": False})
    assert [e["id"] for e in broker.history("chat")] == [mine["id"]]
    assert [e["id"] for e in other.history("chat")] == [theirs["id"]]
    assert other.purge("chat") == 1
    assert [e["id"] for e in broker.history("chat")] == [mine["id"]]


def test_flags_are_checked_per_main_topic(broker, ingest, tenant):
    reader = broker_token(tenant, {"orders": {"data": "R"}, "*": {"data": "P"}})
    assert broker.call("POST", "/data/orders:1", token=reader, json={"type": "a"}).status_code == 403
    assert broker.call("GET", "/data/orders:1", token=reader).status_code == 200
    assert broker.call("GET", "/data/chat", token=reader).status_code == 403
    assert broker.call("DELETE", "/data/orders", token=reader).status_code == 403
    assert broker.call("POST", "/data/chat", token=reader, json={"type": "a"}).status_code == 201
    assert broker.call("GET", "/topics/orders", token=reader).status_code == 403
    assert broker.call("GET", "/data/orders").status_code == 200
    assert broker.client.get(broker.url("/data/orders")).status_code == 401


def test_without_ingest_the_publish_answers_503_after_its_bounded_wait(broker, broker_lane, override_settings):
    """Durable on the backbone but not stored in time: 503 ``event_not_stored``, never a 201."""
    override_settings(broker_store_wait_seconds=1)
    response = broker.call("POST", "/data/orders", json={"type": "order.shipped"})
    assert response.status_code == 503 and response.json()["code"] == "event_not_stored"

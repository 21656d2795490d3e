"""Retention configs (every rule the seed states) and bad input: 422 per field, 400 for non-JSON."""

from __future__ import annotations

from tests.ingest.conftest import scalar


def test_seed_put_example_and_the_config_rules(broker):
    response = broker.call("PUT", "/topics/chat", content=b'{"max_events":50000,"ttl_seconds":604800}',
                           headers={"content-type": "application/json"})
    assert response.status_code == 200, response.text
    stored = response.json()["data"]
    assert {k: stored[k] for k in ("topic", "max_events", "ttl_seconds", "default")} == {
        "topic": "chat", "max_events": 50000, "ttl_seconds": 604800, "default": False}
    assert stored["inserted_at"] and stored["updated_at"]
    # PUT replaces the whole config: the omitted bound becomes null (unbounded).
    replaced = broker.put_config("chat", {"max_events": 10})
    assert (replaced["max_events"], replaced["ttl_seconds"]) == (10, None)
    assert replaced["inserted_at"] == stored["inserted_at"]
    default = broker.call("GET", "/topics/orders").json()["data"]
    assert (default["default"], default["max_events"], default["ttl_seconds"]) == (True, 1000, 3600)
    broker.put_config("alpha", {})
    assert [c["topic"] for c in broker.call("GET", "/topics").json()["data"]] == ["alpha", "chat"]
    assert broker.call("DELETE", "/topics/chat").status_code == 204
    assert broker.call("DELETE", "/topics/chat").status_code == 204
    assert broker.call("GET", "/topics/chat").json()["data"]["default"] is True


def test_config_refusals(broker):
    sub = broker.call("PUT", "/topics/chat:room-7", json={"max_events": 5})
    assert sub.status_code == 422 and sub.json()["errors"][0]["location"] == "path/topic"
    assert broker.call("GET", "/topics/chat:room-7").status_code == 422
    assert broker.call("DELETE", "/topics/chat:room-7").status_code == 422
    bad = broker.call("PUT", "/topics/chat", json={"max_events": 0, "ttl_seconds": "1"})
    assert bad.status_code == 422
    assert {e["location"] for e in bad.json()["errors"]} == {"max_events", "ttl_seconds"}
    assert broker.call("PUT", "/topics/chat", json={"max_events": -3}).status_code == 422
    not_json = broker.call("PUT", "/topics/chat", content=b"{max", headers={"content-type": "application/json"})
    assert not_json.status_code == 400
    assert broker.call("GET", "/topics").json()["data"] == []


def test_bad_publish_input_is_refused_per_field_and_nothing_is_stored(broker, tenant):
    cases = {
        "/data/orders::1": "path/topic", "/data/or%20ders": "path/topic", "/data/" + "a:" * 8 + "a": "path/topic",
        "/data/" + "x" * 65: "path/topic",
    }
    for path, location in cases.items():
        response = broker.call("POST", path, json={"type": "a"})
        assert response.status_code == 422, (path, response.text)
        assert response.json()["code"] == "validation_error"
        assert response.json()["errors"][0]["location"] == location
    both = broker.call("POST", "/data/orders", json={"type": ".bad", "data": "x" * 70_000})
    assert both.status_code == 422 and {e["location"] for e in both.json()["errors"]} == {"type", "data"}
    assert broker.call("POST", "/data/orders", json={"data": {}}).json()["errors"][0]["location"] == "type"
    assert broker.call("POST", "/data/orders", json=["type"]).status_code == 422
    not_json = broker.call("POST", "/data/orders", content=b'{"type": ', headers={"content-type": "application/json"})
    assert not_json.status_code == 400 and not_json.json()["code"] == "bad_request"
    assert scalar("SELECT count(*) FROM event_log WHERE tenant_id = %s", (tenant,)) == 0


def test_bad_query_parameters(broker):
    for params, location in (({"limit": "0"}, "query/limit"), ({"limit": "1001"}, "query/limit"),
                             ({"limit": "x"}, "query/limit"), ({"until": "-1"}, "query/until"),
                             ({"type": "a b"}, "query/type")):
        response = broker.call("GET", "/data/orders", params=params)
        assert response.status_code == 422 and response.json()["errors"][0]["location"] == location, params
    for params, location in (({"since": "soon"}, "query/since"), ({"until": "1.5"}, "query/until")):
        response = broker.call("DELETE", "/data/orders", params=params)
        assert response.status_code == 422 and response.json()["errors"][0]["location"] == location, params

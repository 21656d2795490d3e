"""``GET /api/{domain}/event/tree`` (N76): the domain's topics holding events in byte order with counts,
paged by the last topic; only topics the claim may read; another domain is refused."""

from __future__ import annotations

from tests.broker.conftest import broker_token


def test_the_tree_pages_the_domains_topics_with_counts(broker, ingest, client):
    for topic in ("orders", "orders:2", "orders:1", "orders:1", "billing:9"):
        broker.publish(topic)
    first = broker.call("GET", "/tree", params={"limit": 2})
    assert first.status_code == 200, first.text
    assert [(i["topic"], i["main"], i["events"]) for i in first.json()["data"]] == [
        ("billing:9", "billing", 1), ("orders", "orders", 1)]
    assert first.json()["next"] == "orders"
    rest = broker.call("GET", "/tree", params={"after": "orders"}).json()
    assert [(i["topic"], i["events"]) for i in rest["data"]] == [("orders:1", 2), ("orders:2", 1)]
    assert rest["next"] is None and all(isinstance(i["latest_ts"], int) for i in rest["data"])
    only_orders = broker_token(broker.tenant, {"orders": {"data": "R", "topics": ""}})
    limited = broker.call("GET", "/tree", token=only_orders).json()["data"]
    assert {i["main"] for i in limited} == {"orders"}
    assert broker.call("GET", "/tree", domain="someone-else").status_code == 403

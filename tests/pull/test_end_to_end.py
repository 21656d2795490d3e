"""The README's pull quick start, end to end: ``hub send`` → Kafka → ``hub ingest`` → GET /v1/events.

R-pullEvents-04, -05, -11, -13, -14, N14, N16: events produced on the real broker in both content
modes, stored by a real ingestion worker, read back in seq order with the producer's payload.
"""

from __future__ import annotations

from hub.devtools.send import SendRequest, send
from tests.ingest.conftest import ingest_worker, lane, stored  # noqa: F401 (the lane fixture)
from devkit.poll import wait_until

PARTY = "UGFydHktRQ=="


def test_hub_send_then_pull(inbox, tenant, lane, make_token):  # noqa: F811 (the lane fixture)
    """Two events sent with hub send (binary, structured) reach a pull inbox; a third party's does not."""
    sub = inbox.subscribe()
    party_token = make_token(delegated_scope=PARTY)
    delegated = inbox.subscribe(token=party_token)
    source = lane.topic.removeprefix(lane.prefix)
    sent = [send(SendRequest(tenant=tenant, source=source, event_type="orders.created",
                             data={"order_id": "abc", "amount": 42}))[0],
            send(SendRequest(tenant=tenant, source=source, event_type="orders.voided", data={"order_id": "abc"},
                             mode="structured", schema_version="1.2.0"))[0]]
    with ingest_worker():
        wait_until(lambda: stored(tenant) == 2, timeout=60, message="the two events were not stored")
    events = inbox.page(sub)["events"]
    assert [item["ceId"] for item in events] == [item.ce_id for item in sent]
    assert [item["eventType"] for item in events] == ["orders.created", "orders.voided"]
    assert [item["schemaVersion"] for item in events] == ["1.0.0", "1.2.0"]
    assert [item["payload"] for item in events] == [{"order_id": "abc", "amount": 42}, {"order_id": "abc"}]
    assert events[0]["seq"] < events[1]["seq"]
    assert inbox.page(sub)["events"] == []  # acknowledged by the read before
    assert inbox.page(delegated, token=party_token)["events"] == []  # no event carried the party's scope

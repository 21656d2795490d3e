"""GET /v1/events: pages, cursor-as-ack, seeks, limits and the response shape (R-pullEvents-*)."""

from __future__ import annotations

import re

import orjson
import psycopg

from hub.db import libpq_url
from tests.pull.conftest import ORDERS, cursor_of, event, store, store_many

RFC3339_UTC = re.compile(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?Z")


def test_page_shape_order_and_payload(inbox, tenant):
    """R-pullEvents-04, -11, -13, -14, N14: ascending seq; exactly the contract's fields; the payload verbatim."""
    sub = inbox.subscribe()
    raw = '{"order_id": "abc",  "amount": 42, "big": 123456789012345678901234567890}'
    seqs = store(event(tenant, data_json=raw, version="1.4.0"), event(tenant, data={"n": 2}))
    response = inbox.read(sub)
    assert response.status_code == 200, response.text
    assert response.headers["content-type"] == "application/json"
    body = response.json()
    assert set(body) == {"events", "next_cursor"} and body["next_cursor"] is None
    first, second = body["events"]
    assert [first["seq"], second["seq"]] == seqs == sorted(seqs)
    assert set(first) == {"seq", "ceId", "eventType", "schemaVersion", "receivedAt", "payload"}
    assert first["eventType"] == ORDERS and first["schemaVersion"] == "1.4.0"
    assert RFC3339_UTC.fullmatch(first["receivedAt"])
    assert raw.encode() in response.content  # the producer's bytes, not a re-encoding
    assert second["payload"] == {"n": 2}


def test_ce_id_is_the_stored_cloudevents_id(inbox, tenant):
    """R-pullEvents-13: ceId is the event's CloudEvents id, the dedup key across redeliveries."""
    sub = inbox.subscribe()
    sent = event(tenant, data={"x": 1})
    store(sent)
    assert inbox.page(sub)["events"][0]["ceId"] == sent.ce_id
    assert inbox.page(sub, after=0)["events"][0]["ceId"] == sent.ce_id  # a replay carries the same id


def test_read_acknowledges_and_resumes(inbox, tenant):
    """R-pullEvents-05, -06: the read persists its last seq; a plain read resumes after it."""
    sub = inbox.subscribe()
    assert inbox.seqs(sub) == [] and cursor_of(sub) == 0
    first = store_many(tenant, 3)
    assert inbox.seqs(sub) == first
    assert cursor_of(sub) == first[-1]
    assert inbox.seqs(sub) == []
    second = store_many(tenant, 2)
    assert inbox.seqs(sub) == second and cursor_of(sub) == second[-1]


def test_next_cursor_only_on_a_full_page(inbox, tenant):
    """R-pullEvents-10, N12: next_cursor is the page's last seq when the page filled, an integer; else null."""
    sub = inbox.subscribe()
    seqs = store_many(tenant, 5)
    full = inbox.page(sub, limit=2)
    assert [item["seq"] for item in full["events"]] == seqs[:2] and full["next_cursor"] == seqs[1]
    assert isinstance(full["next_cursor"], int)
    assert inbox.page(sub, limit=2)["next_cursor"] == seqs[3]
    last = inbox.page(sub, limit=2)
    assert [item["seq"] for item in last["events"]] == seqs[4:] and last["next_cursor"] is None
    assert inbox.page(sub, limit=2) == {"events": [], "next_cursor": None}


def test_limit_is_clamped_not_refused(inbox, tenant):
    """R-pullEvents-09, N1: limit clamps to 1-500, defaults to 100; a malformed value means the default."""
    sub = inbox.subscribe()
    seqs = store_many(tenant, 620)
    assert inbox.seqs(sub, limit=0, after=0) == seqs[:1]
    assert inbox.seqs(sub, limit=-7, after=0) == seqs[:1]
    assert len(inbox.seqs(sub, after=0)) == 100
    assert len(inbox.seqs(sub, limit="many", after=0)) == 100
    assert len(inbox.seqs(sub, limit=1000, after=0)) == 500
    assert len(inbox.seqs(sub, limit="99999999999999999999999", after=0)) == 500
    assert len(inbox.seqs(sub, limit=37, after=0)) == 37


def test_forward_seek_advances_past_the_gap(inbox, tenant):
    """R-pullEvents-07: an explicit after overrides the cursor; the skipped range is never re-delivered."""
    sub = inbox.subscribe()
    seqs = store_many(tenant, 6)
    assert inbox.seqs(sub, after=seqs[2], limit=1) == [seqs[3]]
    assert cursor_of(sub) == seqs[3]
    assert inbox.seqs(sub) == seqs[4:]


def test_forward_seek_with_an_empty_page_still_moves_the_cursor(inbox, tenant):
    """R-pullEvents-07: a seek to the newest event acknowledges the gap even though nothing is returned."""
    sub = inbox.subscribe()
    seqs = store_many(tenant, 3)
    assert inbox.seqs(sub, after=seqs[-1]) == []
    assert cursor_of(sub) == seqs[-1]
    assert inbox.seqs(sub) == []


def test_seek_beyond_the_log_stops_at_the_newest_event(inbox, tenant):
    """R-pullEvents-07: the durable cursor moves past events that exist, never past ones not yet arrived."""
    sub = inbox.subscribe()
    seqs = store_many(tenant, 2)
    assert inbox.seqs(sub, after=seqs[-1] + 1000) == []
    assert cursor_of(sub) == seqs[-1]
    later = store_many(tenant, 1)
    assert inbox.seqs(sub) == later


def test_backward_seek_rereads_without_rewinding(inbox, tenant):
    """R-pullEvents-07, -13: a backward seek re-delivers, and the durable cursor stays where it was."""
    sub = inbox.subscribe()
    seqs = store_many(tenant, 4)
    assert inbox.seqs(sub) == seqs
    assert inbox.seqs(sub, after=0, limit=2) == seqs[:2]
    assert cursor_of(sub) == seqs[-1]
    assert inbox.seqs(sub) == []


def test_malformed_or_negative_after_folds_to_the_cursor(inbox, tenant):
    """R-pullEvents-08, N1: after=-3, text, a fraction, empty or beyond int64 reads from the persisted cursor."""
    seqs = store_many(tenant, 3)
    for value in ("-3", "abc", "1.5", "", "99999999999999999999", "0x10", " 1", "1e3"):
        sub = inbox.subscribe()
        assert inbox.seqs(sub, limit=1) == seqs[:1]
        assert inbox.seqs(sub, after=value, limit=1) == [seqs[1]], value
        assert cursor_of(sub) == seqs[1]


def test_payloads_that_are_not_objects_are_wrapped(inbox, tenant):
    """R-pullEvents-11, -14: payload is always an object; other data rides as CloudEvents JSON does."""
    sub = inbox.subscribe()
    store(event(tenant, data=[1, 2]), event(tenant, data="text"), event(tenant),
          event(tenant, data_json='"AAEC"', base64=True), event(tenant, data_json=' {"a": 1}'))
    payloads = [item["payload"] for item in inbox.page(sub)["events"]]
    assert payloads == [{"data": [1, 2]}, {"data": "text"}, {}, {"data_base64": "AAEC"}, {"a": 1}]


def test_body_bytes_are_valid_json_for_every_payload_kind(inbox, tenant):
    """R-pullEvents-11: the spliced producer bytes still make one valid JSON document."""
    sub = inbox.subscribe()
    store(event(tenant, data_json='{"nested": {"deep": [1, {"x": null}]}, "u": "\\u00e9"}'),
          event(tenant, data_json="3.25"), event(tenant, data_json="null"))
    body = orjson.loads(inbox.read(sub).content)
    assert [item["payload"] for item in body["events"]] == [
        {"nested": {"deep": [1, {"x": None}]}, "u": "é"}, {"data": 3.25}, {"data": None}]


def set_enabled(subscription_id: str, enabled: bool) -> None:
    """What an operator's manual disable (or a later re-enable) writes; no API route sets it for pull."""
    with psycopg.connect(libpq_url()) as connection:
        connection.execute("UPDATE subscriptions SET enabled = %s WHERE id = %s", (enabled, subscription_id))


def test_a_disabled_subscription_reads_nothing_and_keeps_its_cursor(inbox, tenant):
    """R-X-STATE-01, R-X-READ-07, R-getDashboard-20, N32: `enabled: false` withholds events, loses none.

    A plain read, a replay and a forward seek all give an empty final page and leave the durable
    cursor where it was; once enabled again the reader resumes from that cursor.
    """
    sub = inbox.subscribe()
    first = store_many(tenant, 2)
    assert inbox.seqs(sub) == first
    set_enabled(sub, False)
    held = store_many(tenant, 3)
    response = inbox.read(sub)
    assert response.status_code == 200, response.text
    assert response.json() == {"events": [], "next_cursor": None}
    assert response.headers["X-Pull-Position"] == str(first[-1])
    assert response.headers["X-Pull-Caught-Up"] == "true"
    assert inbox.seqs(sub, after=0) == []
    assert inbox.seqs(sub, after=held[1]) == []
    assert cursor_of(sub) == first[-1], "nothing is acknowledged while disabled"
    set_enabled(sub, True)
    assert inbox.seqs(sub) == held
    assert cursor_of(sub) == held[-1]

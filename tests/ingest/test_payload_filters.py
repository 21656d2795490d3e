"""Payload filters in ingest's matching (N53): the cache's select, then a real worker on the real broker."""

from __future__ import annotations

import uuid

import orjson

from hub.cloudevent.decode import Event
from tests.ingest.conftest import binary, cloud_event, ingest_worker, insert_subscription, rows, structured, wait_until
from workers.ingest.matching import SubscriptionCache, subscription_from_row

BIG = {"data.total": {"$gte": 100}}


def _event(data, **attributes) -> Event:
    attrs = {"id": str(uuid.uuid4()), "source": "ledger", "type": "order.paid", "tenantid": "t1", **attributes}
    return Event("t1", "ledger", attrs["id"], "order.paid", "1.0.0", 1, None, None, None,
                 orjson.dumps(attrs).decode(), None if data is None else orjson.dumps(data).decode())


def _cache() -> SubscriptionCache:
    cache = SubscriptionCache()
    cache.load([subscription_from_row(row) for row in [
        ("plain", "t1", None, "webhook", None, None, None, None, None, None),
        ("big", "t1", None, "webhook", None, None, None, None, BIG, None),
        ("eu", "t1", None, "webhook", None, None, None, None, {"subject": {"$prefix": "eu-"}}, None),
        ("pull-big", "t1", None, "pull", None, None, None, None, BIG, None),
        ("pull-plain", "t1", None, "pull", None, None, None, None, None, None),
        ("broken", "t1", None, "webhook", None, None, None, None, {"$nope": 1}, None),
    ]], 1)
    return cache


def test_select_applies_each_candidates_filter():
    cache = _cache()
    small = cache.select(_event({"total": 5}))
    assert set(small.push) == {"plain"} and small.pull == ("pull-plain",)
    big = cache.select(_event({"total": 500}, subject="eu-west"))
    assert set(big.push) == {"plain", "big", "eu"} and big.pull == ("pull-big", "pull-plain")
    assert set(cache.select(_event(None, subject="eu-1")).push) == {"plain", "eu"}


def test_a_stored_filter_that_fails_the_checks_matches_nothing():
    assert "broken" not in cache_ids(_cache())


def cache_ids(cache: SubscriptionCache) -> set[str]:
    found = cache.select(_event({"total": 1000}, subject="eu-x"))
    return set(found.push) | set(found.pull)


def test_a_filtered_subscription_gets_only_matching_events_on_the_real_broker(lane, tenant):
    """End to end: jobs and pull eligibility exist only for the events each filter matches."""
    subs = {
        "all": insert_subscription(tenant),
        "big": insert_subscription(tenant, payload_filter=BIG),
        "eu-or-vip": insert_subscription(tenant, payload_filter={
            "$or": [{"subject": {"$prefix": "eu-"}}, {"data.customer.tier": {"$in": ["gold", "vip"]}}]}),
        "not-refund": insert_subscription(tenant, payload_filter={"$not": {"data.kind": "refund"}}),
        "pull-big": insert_subscription(tenant, sink_kind="pull", endpoint="pull://big", payload_filter=BIG),
    }
    events = {
        "small-eu": cloud_event(tenant, subject="eu-west", data={"total": 5, "kind": "sale"}),
        "big-us": cloud_event(tenant, subject="us-east", data={"total": 250, "kind": "refund"}),
        "vip": cloud_event(tenant, data={"total": 99.5, "customer": {"tier": "vip"}}),
        "text-total": cloud_event(tenant, data={"total": "1000"}),
    }
    expected = {"small-eu": {"all", "eu-or-vip", "not-refund"}, "big-us": {"all", "big"},
                "vip": {"all", "eu-or-vip", "not-refund"}, "text-total": {"all", "not-refund"}}
    lane.send(*[(binary if index % 2 else structured)(event) for index, event in enumerate(events.values())])
    with ingest_worker():
        wait_until(lambda: lane.committed() == len(events))

    seq_of = dict(rows("SELECT ce_id, seq FROM event_log WHERE tenant_id = %s", (tenant,)))
    names = {value: key for key, value in subs.items()}
    jobs: dict[int, set[str]] = {}
    for sub_id, seq in rows("SELECT subscription_id::text, event_seq FROM delivery_jobs WHERE tenant_id = %s",
                            (tenant,)):
        jobs.setdefault(seq, set()).add(names[sub_id])
    got = {name: jobs.get(seq_of[event.get_attributes()["id"]], set()) for name, event in events.items()}
    assert got == expected
    available = rows("SELECT event_seq FROM delivery_attempts WHERE subscription_id = %s AND outcome = 'available'",
                     (subs["pull-big"],))
    assert [seq for (seq,) in available] == [seq_of[events["big-us"].get_attributes()["id"]]]

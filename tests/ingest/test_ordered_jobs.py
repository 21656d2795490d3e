"""Ingest's ordered jobs (N77, N78): an ordered subscription's job for an event carrying its key goes
through the ordered enqueue (first of its key pending, later ones waiting); every other job is COPYed as before."""

from __future__ import annotations

from hub.cloudevent.decode import Event, decode_parts
from hub.db import libpq_url
from hub.subscription.ordering_policy import OnDeadLetter, OrderingPolicy, key_text, ordering_policy
from tests.ingest.conftest import binary, cloud_event, insert_subscription, rows
from workers.ingest.matching import SubscriptionCache
from workers.ingest.store import EventStore


def _event(tenant: str, **extra: object) -> Event:
    message = binary(cloud_event(tenant, **extra))
    event = decode_parts(list(message.headers.items()), None, message.value, max_bytes=1 << 20)
    assert isinstance(event, Event)
    return event


def _jobs(sub_id: str) -> list[tuple]:
    return rows("""SELECT e.ce_id, j.ordering_key, j.state FROM delivery_jobs AS j
                     JOIN event_log AS e ON e.tenant_id = j.tenant_id AND e.seq = j.event_seq
                    WHERE j.subscription_id = %s ORDER BY j.event_seq""", (sub_id,))


def test_ordered_subscriptions_get_keyed_jobs_and_the_rest_stay_unordered(tenant: str) -> None:
    by_partition_key = insert_subscription(tenant, ordering={"key": "partitionkey", "on_dead_letter": "skip"})
    by_account = insert_subscription(tenant, ordering={"key": "accountid", "on_dead_letter": "block"})
    plain = insert_subscription(tenant)
    events = [_event(tenant, ce_id="e1", partitionkey="a", accountid=42),
              _event(tenant, ce_id="e2", partitionkey="b", accountid="42"),
              _event(tenant, ce_id="e3", partitionkey="a"),
              _event(tenant, ce_id="e4")]
    store = EventStore(libpq_url(), SubscriptionCache())
    try:
        outcome = store.write(events, [], lambda rejected: None)
        assert outcome.jobs == 12
        assert store.write(events, [], lambda rejected: None).jobs == 0  # duplicates make no jobs
    finally:
        store.close()
    assert _jobs(by_partition_key) == [("e1", "a", "pending"), ("e2", "b", "pending"), ("e3", "a", "waiting"),
                                       ("e4", None, "pending")]
    assert _jobs(by_account) == [("e1", "42", "pending"), ("e2", "42", "waiting"), ("e3", None, "pending"),
                                 ("e4", None, "pending")]
    assert _jobs(plain) == [(f"e{n}", None, "pending") for n in range(1, 5)]
    heads = rows("SELECT subscription_id::text, ordering_key FROM ordered_keys WHERE tenant_id = %s ORDER BY 1, 2",
                 (tenant,))
    assert sorted(heads) == sorted([(by_partition_key, "a"), (by_partition_key, "b"), (by_account, "42")])


def test_the_stored_option_reads_as_a_policy() -> None:
    assert ordering_policy(None) is None
    assert ordering_policy({"key": "partitionkey", "on_dead_letter": "block"}) == OrderingPolicy(
        "partitionkey", OnDeadLetter.block)
    assert ordering_policy({}) == OrderingPolicy()  # partitionkey, skip
    assert OrderingPolicy("accountid").key_of("p", '{"accountid": true}') == "true"
    assert OrderingPolicy().key_of("p", "{}") == "p"
    assert [key_text(value) for value in ("x", "", 7, None, 1.5, {"a": 1})] == ["x", None, "7", None, None, None]

"""N19 on the real broker: a (tenant, source, id) is stored once, however often it is consumed."""

from __future__ import annotations

from confluent_kafka import Consumer, TopicPartition

from hub.config import get_settings
from hub.metrics import DEDUP_HITS, EVENTS_INGESTED
from tests.ingest.conftest import (
    binary, cloud_event, ingest_worker, insert_subscription, rows, scalar, stored, structured, wait_until,
)


def _jobs(tenant: str) -> list[tuple]:
    return rows("SELECT subscription_id::text, event_seq FROM delivery_jobs WHERE tenant_id = %s ORDER BY event_seq",
                (tenant,))


def _reset_group(group: str, topic: str) -> None:
    """What `kafka-consumer-groups --reset-offsets --to-earliest` does, while the group is empty."""
    consumer = Consumer({"bootstrap.servers": get_settings().kafka_bootstrap, "group.id": group,
                         "enable.auto.commit": False})
    try:
        consumer.commit(offsets=[TopicPartition(topic, 0, 0)], asynchronous=False)
    finally:
        consumer.close()


def test_redelivered_and_reconsumed_records_are_stored_once(lane, tenant):
    """N19, R-pullEvents-13: duplicates in a batch, across batches, across modes and after an offset reset."""
    subscription = insert_subscription(tenant, event_types=["transaction.posted"])
    first, second = cloud_event(tenant), cloud_event(tenant)
    same_id_other_source = cloud_event(tenant, ce_id=first.get_attributes()["id"], source="billing")
    lane.send(binary(first), binary(first), structured(first), binary(second), binary(same_id_other_source))
    dedup_before, ingested_before = DEDUP_HITS._value.get(), EVENTS_INGESTED._value.get()

    with ingest_worker():
        wait_until(lambda: lane.committed() == 5)
        # A later redelivery of an already stored event, in another batch and the other mode.
        lane.send(structured(second))
        wait_until(lambda: lane.committed() == 6)

    expected = [(first.get_attributes()["id"], "ledger"), (second.get_attributes()["id"], "ledger"),
                (first.get_attributes()["id"], "billing")]
    stored_rows = rows("SELECT ce_id, source, seq FROM event_log WHERE tenant_id = %s ORDER BY seq", (tenant,))
    assert [(row[0], row[1]) for row in stored_rows] == expected, "the source is part of the dedup key"
    assert DEDUP_HITS._value.get() - dedup_before == 3
    assert EVENTS_INGESTED._value.get() - ingested_before == 3
    jobs = _jobs(tenant)
    assert jobs == [(subscription, row[2]) for row in stored_rows], "one job per stored event, none per duplicate"

    # Reset the group to the beginning: all six records are consumed again, nothing new is stored.
    _reset_group(lane.group, lane.topic)
    assert lane.committed() == 0
    dedup_before = DEDUP_HITS._value.get()
    with ingest_worker():
        wait_until(lambda: lane.committed() == 6)
    assert stored(tenant) == 3
    assert DEDUP_HITS._value.get() - dedup_before == 6
    assert _jobs(tenant) == jobs, "no second delivery job for a re-consumed record"
    counter = scalar("SELECT last_seq FROM tenant_counters WHERE tenant_id = %s", (tenant,))
    assert counter >= stored_rows[-1][2], "a duplicate's seq becomes a gap, never reused"


def test_reconsumed_poison_counts_one_attempt(lane, tenant):
    """N19/N23: the poison attempt id is fixed by the record's coordinates, so a re-read adds none."""
    event = binary(cloud_event(tenant))
    no_id = ({k: v for k, v in event.headers.items() if k != "ce_id"}, None, event.value)
    lane.send(no_id, binary(cloud_event(tenant)))
    with ingest_worker():
        wait_until(lambda: lane.committed() == 2)
    _reset_group(lane.group, lane.topic)
    with ingest_worker():
        wait_until(lambda: lane.committed() == 2)
    assert scalar("SELECT count(*) FROM delivery_attempts WHERE tenant_id = %s AND outcome = 'poison'",
                  (tenant,)) == 1
    assert stored(tenant) == 1

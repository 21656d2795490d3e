"""One observation per poison record, on a real dead-letter topic and the real observer process.

An ingestion worker killed after its dead-letter produce was acknowledged, but before its offset
commit, dead-letters the same source record again at a new DLQ offset. The copies carry the same
``dlq-source-*`` headers; the observer must store one row for them. A record with no source
headers (another producer) is only idempotent on its own DLQ coordinates.
"""

from __future__ import annotations

import uuid

import psycopg

from hub.ids import record_uuid
from hub.kafka import ensure_topics, make_producer
from devkit.offsets import committed_offset
from devkit.processes import hub_process
from devkit.poll import wait_until

STAMP_MS = 1_900_000_000_123


def _dead_letter(source_topic: str, partition: int, offset: int, *, message: str) -> list[tuple[str, bytes]]:
    """The headers the ingestion worker writes for the source record at (partition, offset)."""
    return [
        ("ce_id", b"original-header-kept"),
        ("dlq-source-topic", source_topic.encode()), ("dlq-error-class", b"validation"),
        ("dlq-error-message", message.encode()), ("dlq-retry-count", b"0"),
        ("dlq-first-failure-at", b"2030-03-17T12:00:00.000Z"), ("dlq-producer-id", b"ledger"),
        ("dlq-tenant-id-raw", b"tenant-acme"), ("dlq-source-partition", str(partition).encode()),
        ("dlq-source-offset", str(offset).encode()), ("dlq-source-timestamp", str(STAMP_MS).encode()),
    ]


def test_a_poison_record_dead_lettered_twice_is_observed_once(dlq_db):
    """Copies read together, a copy read later, and a whole re-read: one row per source record."""
    prefix = f"t{uuid.uuid4().hex[:10]}."
    source_topic, dlq_topic = f"{prefix}ledger", f"{prefix}dlq"
    ensure_topics([dlq_topic], partitions=1)
    producer = make_producer()
    for value, headers in [
        (b"poison A", _dead_letter(source_topic, 2, 17, message="first quarantine of A")),   # DLQ offset 0
        (b"poison B", _dead_letter(source_topic, 2, 18, message="B")),                       # 1
        (b"poison A", _dead_letter(source_topic, 2, 17, message="A again, batch retried")),  # 2
        (b"foreign", [("dlq-error-class", b"validation"), ("dlq-error-message", b"no source headers")]),  # 3
    ]:
        producer.produce(dlq_topic, value=value, headers=headers)
    assert producer.flush(15) == 0

    def observed() -> list[tuple]:
        with psycopg.connect(dlq_db.replace("+psycopg", "")) as connection:
            return connection.execute(
                "SELECT id, dlq_offset, error_message FROM dlq_observations WHERE dlq_topic = %s "
                "ORDER BY dlq_offset", (dlq_topic,)).fetchall()

    group = f"test-dlq-{uuid.uuid4().hex[:8]}"
    env = {"HUB_DATABASE_URL": dlq_db, "HUB_KAFKA_TOPIC_PREFIX": prefix, "HUB_KAFKA_DLQ_GROUP": group}
    with hub_process("dlq-observer", env):
        wait_until(lambda: committed_offset(group, dlq_topic) == 4, 60, 0.3,
                   "the observer to commit the first four records")
        first = observed()
        # A third copy of A, in a batch of its own: it conflicts with a stored row, not a row of its batch.
        producer.produce(dlq_topic, value=b"poison A", headers=_dead_letter(source_topic, 2, 17, message="A 3"))
        assert producer.flush(15) == 0
        wait_until(lambda: committed_offset(group, dlq_topic) == 5, 60, 0.3, "the observer to commit the fifth record")
        second = observed()

    assert [row[1] for row in first] == [0, 1, 3]  # A (its first copy), B, the foreign record
    a_id, b_id = record_uuid(source_topic, 2, 17, STAMP_MS), record_uuid(source_topic, 2, 18, STAMP_MS)
    assert [row[0] for row in first[:2]] == [a_id, b_id]
    assert first[0][2] == "first quarantine of A"
    assert first[2][0] not in (a_id, b_id) and first[2][0].version == 7
    assert second == first

    # Every record consumed again (a new group reads from the start): the foreign record gets a fresh
    # id this time, and its DLQ coordinates keep it from being stored twice.
    regroup = f"test-dlq-{uuid.uuid4().hex[:8]}"
    with hub_process("dlq-observer", {**env, "HUB_KAFKA_DLQ_GROUP": regroup}):
        wait_until(lambda: committed_offset(regroup, dlq_topic) == 5, 60, 0.3,
                   "the second observer to commit all five records")
    assert observed() == first

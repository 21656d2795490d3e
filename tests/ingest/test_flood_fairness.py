"""A flood fetched ahead does not hold back another partition's record (N98), against the real broker.

20,000 records are produced to one topic and the consumer starts on it and a second topic; once the flood
has been fetched ahead (librdkafka holds all of it), one record goes to the second topic. With the
read-ahead by partition it is batched within a read-ahead's worth of the flood; in librdkafka's order it
came after the whole flood.
"""

from __future__ import annotations

import threading
import time
import uuid

import pytest
from confluent_kafka.admin import NewTopic

from hub.kafka import admin_client, make_consumer, make_producer
from workers.kafka_loop import BatchLoop

FLOOD, BATCH, READ_AHEAD = 20_000, 500, 4_000


def _topics(*names: str) -> None:
    futures = admin_client().create_topics([NewTopic(name, num_partitions=1, replication_factor=1) for name in names])
    for future in futures.values():
        future.result(timeout=30)


def _flooded(write_seconds: float) -> tuple[str, str, object, list[list[str]], list[threading.Event], object]:
    """A flood topic filled, a quiet one, a producer, and a handler taking ``write_seconds`` a batch that
    notes each batch's topics (and sets the event of each batch as its write begins)."""
    flood, quiet = f"test.flood.{uuid.uuid4().hex[:8]}", f"test.quiet.{uuid.uuid4().hex[:8]}"
    _topics(flood, quiet)
    producer = make_producer()
    for n in range(FLOOD):
        producer.produce(flood, value=b"x" * 100, key=str(n).encode())
        producer.poll(0)
    producer.flush(30)
    batches: list[list[str]] = []
    began = [threading.Event() for _ in range(FLOOD)]

    def handler(records: list) -> None:
        began[len(batches)].set()
        time.sleep(write_seconds)  # a write's time
        batches.append([record.topic() for record in records])

    return flood, quiet, producer, batches, began, handler


def _flood_before_quiet(read_ahead: int) -> int:
    """How many flood records were batched after the quiet record was produced, before it was."""
    flood, quiet, producer, batches, _, handler = _flooded(0.02)  # the flood is ingested over about a second
    stop = threading.Event()
    consumer = make_consumer(f"test-flood-{uuid.uuid4().hex[:8]}")
    loop = BatchLoop(consumer, handler, max_records=BATCH, max_ms=20, retry_max_seconds=1, stop=stop,
                     read_ahead=read_ahead)
    loop.subscribe([flood, quiet])
    thread = threading.Thread(target=loop.run, daemon=True)
    thread.start()
    try:
        deadline = time.monotonic() + 60  # a bound on the group's join, not a latency assertion
        while len(batches) < 2 and time.monotonic() < deadline:
            time.sleep(0.01)
        assert len(batches) >= 2, "the consumer never started"
        written = len(batches)
        producer.produce(quiet, value=b"q")
        producer.flush(10)
        while not any(quiet in batch for batch in batches) and time.monotonic() < deadline:
            time.sleep(0.01)
        stop.set()
        thread.join(30)
    finally:
        stop.set()
    after = batches[written:]
    upto = next(index for index, batch in enumerate(after) if quiet in batch)
    return sum(batch.count(flood) for batch in after[: upto + 1])


@pytest.mark.parametrize("read_ahead", [READ_AHEAD])
def test_a_record_behind_a_fetched_flood_is_batched_within_a_read_ahead(read_ahead: int) -> None:
    # Records the loop held or had fetched when the quiet record came, at most: the read-ahead, the batch
    # being collected and the one being written.
    assert _flood_before_quiet(read_ahead) <= read_ahead + 3 * BATCH


def test_without_it_the_record_waits_for_the_flood_fetched_ahead() -> None:
    """The witness: in librdkafka's order the same record comes after most of the flood."""
    assert _flood_before_quiet(0) > FLOOD // 2


def test_a_quiet_record_that_came_during_a_write_goes_with_the_next_batch() -> None:
    """The batch after the one being written was collected already; the quiet record is topped up into it
    as it goes to the writer, not left for the one after (N98)."""
    flood, quiet, producer, batches, began, handler = _flooded(0.3)
    stop = threading.Event()
    loop = BatchLoop(make_consumer(f"test-flood-{uuid.uuid4().hex[:8]}"), handler, max_records=BATCH, max_ms=20,
                     retry_max_seconds=1, stop=stop, read_ahead=READ_AHEAD)
    loop.subscribe([flood, quiet])
    thread = threading.Thread(target=loop.run, daemon=True)
    thread.start()
    try:
        assert began[2].wait(60), "the consumer never started"  # a bound on the group's join
        producer.produce(quiet, value=b"q")
        producer.flush(10)
        deadline = time.monotonic() + 60
        while not any(quiet in batch for batch in batches) and time.monotonic() < deadline:
            time.sleep(0.01)
    finally:
        stop.set()
        thread.join(30)
    assert [index for index, batch in enumerate(batches) if quiet in batch] == [3]
    assert batches[3].count(flood) == BATCH  # the batch kept its whole share of the flood

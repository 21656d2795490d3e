"""Ingest's read-ahead by partition (N98), with a fake consumer that models librdkafka's one queue in fetch
order, pause (which drops what it fetched for the partition) and resume (which fetches again from the next
record not yet handed over). Pure logic; tests/ingest/test_flood_fairness.py runs the real thing."""

from __future__ import annotations

from collections import Counter

from confluent_kafka import TopicPartition
from hypothesis import given, settings, strategies as st

from workers.read_ahead import ReadAhead


class Record:
    def __init__(self, partition: int, offset: int) -> None:
        self._partition, self._offset = partition, offset

    def topic(self) -> str:
        return "t"

    def partition(self) -> int:
        return self._partition

    def offset(self) -> int:
        return self._offset

    def error(self) -> None:
        return None


class FetchOrderConsumer:
    """Partitions' logs; ``fetched``: librdkafka's queue, whole logs fetched ahead in partition order."""

    def __init__(self, logs: dict[int, int]) -> None:
        self.logs = logs
        self.next = dict.fromkeys(logs, 0)  # the next offset to hand over, per partition
        self.paused: set[int] = set()
        self.fetched: list[Record] = []
        self._refetch()

    def _refetch(self) -> None:
        queued = {(r.partition(), r.offset()) for r in self.fetched}
        for partition, length in self.logs.items():
            if partition in self.paused:
                continue
            self.fetched += [Record(partition, offset) for offset in range(self.next[partition], length)
                             if (partition, offset) not in queued]

    def consume(self, num_messages: int, timeout: float) -> list[Record]:
        handed, self.fetched = self.fetched[:num_messages], self.fetched[num_messages:]
        for record in handed:
            self.next[record.partition()] = record.offset() + 1
        return handed

    def pause(self, partitions: list[TopicPartition]) -> None:
        gone = {tp.partition for tp in partitions}
        self.paused |= gone
        self.fetched = [r for r in self.fetched if r.partition() not in gone]

    def resume(self, partitions: list[TopicPartition]) -> None:
        self.paused -= {tp.partition for tp in partitions}
        self._refetch()


def drain(ahead: ReadAhead, batch: int) -> list[list[Record]]:
    batches = []
    while taken := ahead.consume(num_messages=batch, timeout=0):
        batches.append(taken)
    return batches


def test_a_record_behind_a_flood_goes_in_the_next_batch() -> None:
    """Partition 0 floods (50,000 records fetched first); partition 1's one record is in the batch after the
    first (the read-ahead is full at first: the flood is paused, and the record comes next), not after the
    flood."""
    consumer = FetchOrderConsumer({0: 50_000, 1: 1})
    batches = drain(ReadAhead(consumer, limit=5_000, resume_below=500), 500)
    assert any(record.partition() == 1 for record in batches[0] + batches[1])
    assert consumer.paused == set() and sum(map(len, batches)) == 50_001


@settings(max_examples=60, deadline=None)
@given(logs=st.dictionaries(st.integers(0, 5), st.integers(0, 3_000), min_size=1, max_size=6),
       limit=st.integers(1, 2_000), batch=st.integers(1, 700))
def test_every_record_once_in_partition_order_within_the_bound(logs: dict[int, int], limit: int, batch: int) -> None:
    consumer = FetchOrderConsumer(logs)
    ahead = ReadAhead(consumer, limit=limit, resume_below=batch)
    seen: dict[int, list[int]] = {partition: [] for partition in logs}
    for taken in drain(ahead, batch):
        assert len(taken) <= batch and len(ahead) <= max(limit, 1_000)
        for record in taken:
            seen[record.partition()].append(record.offset())
    assert seen == {partition: list(range(length)) for partition, length in logs.items()}


def test_partitions_with_records_share_a_batch_evenly() -> None:
    consumer = FetchOrderConsumer({0: 10_000, 1: 10_000, 2: 40})
    first = ReadAhead(consumer, limit=30_000, resume_below=300).consume(num_messages=300, timeout=0)
    assert Counter(record.partition() for record in first) == {0: 130, 1: 130, 2: 40}


def test_a_rewind_forgets_what_was_read_ahead() -> None:
    consumer = FetchOrderConsumer({0: 100, 1: 100})
    ahead = ReadAhead(consumer, limit=50, resume_below=10)
    ahead.consume(num_messages=10, timeout=0)
    assert len(ahead) > 0 and min(r.offset() for r in ahead.records() if r.partition() == 0) >= 0
    ahead.clear()
    assert len(ahead) == 0 and ahead.records() == [] and not ahead.held


@settings(max_examples=60, deadline=None)
@given(logs=st.dictionaries(st.integers(0, 5), st.integers(0, 600), min_size=1, max_size=6),
       batch=st.integers(1, 300), short=st.integers(1, 50), turns=st.lists(st.booleans(), max_size=200))
def test_top_ups_take_whole_short_queues_and_lose_nothing(logs: dict[int, int], batch: int, short: int,
                                                          turns: list[bool]) -> None:
    """Batches and top-ups (``quiet``) in any order: every record once, in partition order; a top-up takes
    whole queues of at most ``short`` records, never more than it may."""
    consumer = FetchOrderConsumer(logs)
    ahead = ReadAhead(consumer, limit=400, resume_below=batch)
    seen: dict[int, list[int]] = {partition: [] for partition in logs}
    for top_up in turns + [False] * 10_000:
        taken = ahead.quiet(most=batch, short=short) if top_up else ahead.consume(num_messages=batch, timeout=0)
        if not top_up and not taken:
            break
        assert len(taken) <= batch
        if top_up:
            for partition, count in Counter(record.partition() for record in taken).items():
                assert count <= short and not ahead._queues[("t", partition)]  # the whole queue, a short one
        for record in taken:
            seen[record.partition()].append(record.offset())
    assert seen == {partition: list(range(length)) for partition, length in logs.items()}

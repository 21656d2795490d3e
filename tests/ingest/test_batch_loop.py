"""BatchLoop retry bookkeeping, with a scripted fake consumer (pure logic; the broker runs elsewhere)."""

from __future__ import annotations

import threading

from confluent_kafka import TopicPartition

from workers.kafka_loop import BatchLoop, TransientError


class FakeMessage:
    def __init__(self, offset: int) -> None:
        self._offset = offset

    def topic(self) -> str:
        return "t.ledger"

    def partition(self) -> int:
        return 0

    def offset(self) -> int:
        return self._offset

    def error(self):
        return None


class ScriptedConsumer:
    """Answers consume() from a script of batches; records seeks and commits."""

    def __init__(self, script: list[list[FakeMessage]]) -> None:
        self.script = script
        self.seeks: list[int] = []
        self.stored: list[int] = []
        self.paused = False

    def consume(self, num_messages: int, timeout: float):
        return self.script.pop(0) if self.script else []

    def assignment(self):
        return [TopicPartition("t.ledger", 0)]

    def pause(self, partitions) -> None:
        self.paused = True

    def resume(self, partitions) -> None:
        self.paused = False

    def seek(self, tp: TopicPartition) -> None:
        self.seeks.append(tp.offset)

    def store_offsets(self, offsets) -> None:
        self.stored += [tp.offset for tp in offsets]

    def commit(self, asynchronous: bool = False) -> None:
        pass


def test_an_empty_poll_after_a_failed_batch_is_not_a_recovery():
    """The status stays degraded until the rewound batch is stored, and nothing is committed before."""
    batch = [FakeMessage(5), FakeMessage(6)]
    # attempt 1 fails; after the rewind the next poll is empty (data not fetched yet); then it succeeds.
    consumer = ScriptedConsumer([batch, [], [], batch])
    stop = threading.Event()
    states: list[str] = []
    calls = {"n": 0}

    def handler(records) -> None:
        calls["n"] += 1
        if calls["n"] == 1:
            raise TransientError("PostgreSQL unavailable (OperationalError)")
        stop.set()

    loop = BatchLoop(consumer, handler, max_records=2, max_ms=1, retry_max_seconds=0.01, stop=stop,
                     housekeeping=lambda: states.append(loop.status.state))
    loop.run()
    assert consumer.seeks == [5], "rewound to the failed batch's first record"
    assert consumer.stored == [7], "committed once, after the batch was handled"
    assert calls["n"] == 2
    # The failure shows once the in-flight write returns; from then on housekeeping (after the
    # failure and after each step) sees degraded until the rewound batch was written.
    # The write may also be seen stored before the loop notices the stop: healthy again after it.
    first = states.index("degraded")
    last = len(states) - states[::-1].index("degraded")
    assert states[:first] == ["healthy"] * first
    assert states[first:last] == ["degraded"] * (last - first) and last - first >= 3
    assert states[last:] == ["healthy"] * (len(states) - last)
    assert loop.status.state == "healthy"


def test_revoking_the_failed_partition_ends_the_retry_state():
    batch = [FakeMessage(1)]
    consumer = ScriptedConsumer([batch])
    stop = threading.Event()
    loop = BatchLoop(consumer, lambda records: (_ for _ in ()).throw(TransientError("down")), max_records=10,
                     max_ms=1, retry_max_seconds=0.01, stop=stop)

    def revoke_then_stop():
        if loop.status.retrying:
            loop._drop([TopicPartition("t.ledger", 0)])
            stop.set()

    loop.housekeeping = revoke_then_stop
    loop.run()
    loop._step()  # an empty poll with no failed batch pending on an assigned partition
    assert loop.status.state == "healthy"


def test_a_failed_write_rewinds_to_the_earliest_record_of_both_batches():
    """Batch N+1 is collected while N is written; when N fails, both are read again from N's start."""
    consumer = ScriptedConsumer([[FakeMessage(3), FakeMessage(4)], [FakeMessage(5), FakeMessage(6)]])
    stop = threading.Event()
    written: list[list[int]] = []

    def handler(records) -> None:
        written.append([record.offset() for record in records])
        if len(written) == 1:
            raise TransientError("PostgreSQL unavailable (OperationalError)")
        stop.set()

    loop = BatchLoop(consumer, handler, max_records=2, max_ms=1, retry_max_seconds=0.01, stop=stop)
    consumer.script.append([FakeMessage(3), FakeMessage(4)])  # what the broker serves after the rewind
    loop.run()
    assert consumer.seeks == [3], "one seek, to the failed batch's first record (not to batch N+1's)"
    assert written == [[3, 4], [3, 4]], "batch N+1 was never written before N succeeded"
    assert consumer.stored == [5], "the offsets after the rewritten batch, and nothing earlier"


def test_the_next_batch_is_prepared_while_the_previous_one_is_written():
    """Batch 2 is collected and prepared while batch 1's write blocks; no offset moves before it returns."""
    writing = threading.Event()
    release = threading.Event()
    stop = threading.Event()
    consumer = ScriptedConsumer([[FakeMessage(1)], [FakeMessage(2)]])
    seen: list[tuple[int, bool, list[int]]] = []

    def prepare(records):
        if records[0].offset() == 2:
            assert writing.wait(5), "batch 1 is being written"
            seen.append((2, release.is_set(), list(consumer.stored)))
            release.set()
        return records

    def handler(records) -> None:
        writing.set()
        assert release.wait(5)
        if records[0].offset() == 2:
            stop.set()

    loop = BatchLoop(consumer, handler, prepare=prepare, max_records=1, max_ms=1, retry_max_seconds=0.01,
                     stop=stop)
    loop.run()
    assert seen == [(2, False, [])], "prepared during batch 1's write, before any offset was stored"
    assert consumer.stored == [2, 3]


def test_the_batch_window_opens_at_the_first_record_not_at_a_full_batch():
    """consume() blocks until it has num_messages: the idle wait asks for one record, then the rest within max_ms."""
    asked: list[tuple[int, float]] = []

    class RecordingConsumer(ScriptedConsumer):
        def consume(self, num_messages: int, timeout: float):
            asked.append((num_messages, timeout))
            return super().consume(num_messages, timeout)

    stop = threading.Event()
    consumer = RecordingConsumer([[FakeMessage(1)], [FakeMessage(2)], []])
    batches: list[list[int]] = []

    def handler(records) -> None:
        batches.append([record.offset() for record in records])
        stop.set()

    loop = BatchLoop(consumer, handler, max_records=100, max_ms=50, retry_max_seconds=0.01, stop=stop)
    loop.run()
    assert asked[0] == (1, 0.5), "the idle wait asks for a single record"
    assert asked[1][0] == 99 and 0 < asked[1][1] <= 0.05, "then the rest of the batch, within the window"
    assert batches == [[1, 2]]


def batches_of_idle_loop(consumer: ScriptedConsumer, *, max_records: int, max_ms: int, wanted: int,
                         on_batch=lambda records: None) -> list[list[int]]:  # noqa: ANN001
    """Run a BatchLoop with ``idle_ms=2`` in a thread until ``wanted`` batches were written; their offsets."""
    stop = threading.Event()
    batches: list[list[int]] = []

    def handler(records) -> None:
        batches.append([record.offset() for record in records])
        on_batch(records)
        if len(batches) == wanted:
            stop.set()

    loop = BatchLoop(consumer, handler, max_records=max_records, max_ms=max_ms, idle_ms=2, retry_max_seconds=0.01,
                     stop=stop)
    runner = threading.Thread(target=loop.run)
    runner.start()
    runner.join(10)
    assert not runner.is_alive(), "the loop ended without waiting out its window"
    return batches


def test_a_pause_in_the_stream_writes_the_batch_at_once_when_the_writer_is_free():
    """With idle_ms, a batch whose stream paused is written without waiting out max_ms (low-rate latency)."""
    consumer = ScriptedConsumer([[FakeMessage(1)], [], [FakeMessage(2)], []])
    assert batches_of_idle_loop(consumer, max_records=100, max_ms=60_000, wanted=2) == [[1], [2]]


def test_a_pause_while_the_writer_is_busy_keeps_collecting_into_one_batch():
    """A batch cut at a pause would only queue behind the write in progress: it keeps growing instead."""
    release = threading.Event()

    class ReleasingConsumer(ScriptedConsumer):
        def consume(self, num_messages: int, timeout: float):
            served = super().consume(num_messages, timeout)
            if any(message.offset() == 3 for message in served):
                release.set()
            return served

    def hold_the_first_write(records) -> None:
        if records[0].offset() == 1:
            assert release.wait(5), "batch 2 collected offset 3 while batch 1 was written"

    consumer = ReleasingConsumer([[FakeMessage(1)], [], [FakeMessage(2)], [], [], [FakeMessage(3)]])
    batches = batches_of_idle_loop(consumer, max_records=100, max_ms=60_000, wanted=2, on_batch=hold_the_first_write)
    assert batches == [[1], [2, 3]]


def test_under_load_a_pause_does_not_cut_the_batch():
    """After a full batch the stream counts as loaded: a pause between fetches waits out the window."""
    full = [FakeMessage(offset) for offset in range(1, 21)]
    consumer = ScriptedConsumer([full, [FakeMessage(21)], [], [FakeMessage(22)]])
    batches = batches_of_idle_loop(consumer, max_records=20, max_ms=200, wanted=2)
    assert batches == [list(range(1, 21)), [21, 22]]


def test_a_quiet_slow_stream_waits_for_its_first_record_whole():
    """The idle wait applies after a record: a quiet worker does not poll every idle_ms (it cost CPU, not latency,
    since consume() returns as soon as the first record comes)."""
    asked: list[tuple[int, float]] = []

    class RecordingConsumer(ScriptedConsumer):
        def consume(self, num_messages: int, timeout: float):
            asked.append((num_messages, timeout))
            return super().consume(num_messages, timeout)

    consumer = RecordingConsumer([[], [FakeMessage(1)], [], [], [FakeMessage(2)], []])
    assert batches_of_idle_loop(consumer, max_records=100, max_ms=60_000, wanted=2) == [[1], [2]]
    waits_for_first = [timeout for wanted, timeout in asked if wanted == 1]
    assert waits_for_first and all(timeout == 0.5 for timeout in waits_for_first), asked
    assert any(timeout == 0.002 for wanted, timeout in asked if wanted > 1), "the pause after a record stays short"

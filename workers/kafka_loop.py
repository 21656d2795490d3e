"""The consume → handle → commit loop shared by the ingestion workers and the DLQ observer.

Records are taken in batches (up to N records, within T ms of the first). A writer thread runs
the handler on one batch while the consuming thread collects and prepares the next. A batch's
offsets are stored only after its handler returned, i.e. after the handler's own commit, and are
then committed to Kafka without waiting (a lost commit costs a re-read, which the handler's
idempotence absorbs). A handler raises :class:`TransientError` when a dependency is down: the
loop then pauses the assigned partitions, seeks every partition back to the first record of the
failed batch or of the batch prepared behind it, waits with exponential backoff (tenacity) and
resumes — nothing is skipped and nothing is committed early. Rebalance callbacks wait for the
batch being written, commit what is stored and drop the revoked partitions' records (their new
owner starts from the committed offset).
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable
from concurrent.futures import Future, ThreadPoolExecutor
from dataclasses import dataclass
from typing import Any

from confluent_kafka import Consumer, KafkaError, KafkaException, Message, TopicPartition
from tenacity import RetryCallState, Retrying, retry_if_exception_type, wait_exponential_jitter

from workers import liveness
from workers.read_ahead import ReadAhead
from workers.kafka_state import (
    FatalConsumerError, TransientError, WorkerStatus, record_key, partition_names, first_offsets, kafka_error_callback, next_offsets,
)

log = logging.getLogger("hub.kafka_loop")

__all__ = ["BatchLoop", "FatalConsumerError", "Handler", "InFlight", "TransientError", "WorkerStatus",
           "first_offsets", "kafka_error_callback", "next_offsets"]

Handler = Callable[[Any], None]


@dataclass
class InFlight:
    """A batch handed to the writer thread; its offsets are committed once the write returned."""

    records: list[Message]
    future: Future


class BatchLoop:
    """Consume in batches, hand each batch to ``handler``, commit, and survive faults.

    Two stages overlap: while the writer thread stores batch N (``handler``, mostly waiting on
    the database), the consuming thread collects batch N+1 and runs ``prepare`` on it (decoding,
    CPU). Batches are written one at a time, in order; N's offsets are committed after N's write.
    """

    def __init__(
        self, consumer: Consumer, handler: Handler, *, max_records: int, max_ms: int, idle_ms: int = 0,
        retry_max_seconds: float, stop: threading.Event, status: WorkerStatus | None = None,
        housekeeping: Callable[[], None] | None = None, on_revoked: Callable[[list[TopicPartition]], None] | None = None,
        prepare: Callable[[list[Message]], Any] | None = None, read_ahead: int = 0,
        combine: Callable[[Any, Any], Any] | None = None,
    ) -> None:
        self.consumer = consumer
        # Batches from partitions in turns (N98; 0: in librdkafka's order, as the DLQ observer takes them).
        self._ahead = ReadAhead(consumer, limit=read_ahead, resume_below=max_records) if read_ahead else None
        self._source = self._ahead if self._ahead is not None else consumer
        self.handler = handler
        self.prepare = prepare or (lambda records: records)
        self.combine = combine or (lambda first, second: first + second)  # two prepared parts of one batch
        self.max_records = max_records
        self.max_ms = max_ms
        self.idle_ms = idle_ms
        self._last_size = 0  # records in the last collected batch (see _slow)
        self.retry_max_seconds = retry_max_seconds
        self.stop = stop
        self.status = status or WorkerStatus()
        self.housekeeping = housekeeping or (lambda: None)
        self.on_revoked = on_revoked or (lambda partitions: None)
        self._batch: list[Message] = []
        self._paused: list[TopicPartition] = []
        self._retry_pending: set[tuple[str, int]] = set()  # partitions whose failed batch awaits a retry
        self._writer = ThreadPoolExecutor(max_workers=1, thread_name_prefix="batch-writer")
        self._inflight: InFlight | None = None
        self._failed: tuple[list[Message], TransientError] | None = None
        self._uncommitted = False  # offsets stored since the last commit

    # -- rebalance callbacks (run inside consume()) ------------------------------------------
    def subscribe(self, topics: list[str]) -> None:
        self.consumer.subscribe(topics, on_assign=self._assigned, on_revoke=self._revoked, on_lost=self._lost)

    def _assigned(self, consumer: Consumer, partitions: list[TopicPartition]) -> None:
        log.info("partitions assigned", extra={"fields": {"partitions": partition_names(partitions)}})

    def _drop(self, partitions: list[TopicPartition]) -> None:
        gone = {(tp.topic, tp.partition) for tp in partitions}
        self._batch[:] = [record for record in self._batch if record_key(record) not in gone]
        if self._failed is not None:
            self._failed = ([record for record in self._failed[0] if record_key(record) not in gone], self._failed[1])
        self._paused = [tp for tp in self._paused if (tp.topic, tp.partition) not in gone]
        if self._ahead is not None:
            self._ahead.drop(gone)
        self._retry_pending -= gone
        self.on_revoked(partitions)

    def _revoked(self, consumer: Consumer, partitions: list[TopicPartition]) -> None:
        self._settle()  # the batch being written may hold records of these partitions
        self._drop(partitions)
        try:
            consumer.commit(asynchronous=False)  # what is stored belongs to written batches
        except KafkaException as exc:
            if exc.args[0].code() != KafkaError._NO_OFFSET:
                log.warning("commit on revoke failed", extra={"fields": {"error": exc.args[0].str()}})
        log.info("partitions revoked", extra={"fields": {"partitions": partition_names(partitions)}})

    def _lost(self, consumer: Consumer, partitions: list[TopicPartition]) -> None:
        self._drop(partitions)
        log.warning("partitions lost", extra={"fields": {"partitions": partition_names(partitions)}})

    # -- the loop -------------------------------------------------------------------------------
    def run(self) -> None:
        """Until ``stop`` is set: one batch at a time, retried through transient faults."""
        try:
            while not self.stop.is_set():
                retrying = Retrying(
                    retry=retry_if_exception_type(TransientError),
                    wait=wait_exponential_jitter(initial=0.25, max=self.retry_max_seconds),
                    stop=lambda state: self.stop.is_set(), before_sleep=self._before_sleep,
                    sleep=self.stop.wait, reraise=True,
                )
                try:
                    retrying(self._step)
                except TransientError:
                    break  # stopping while a dependency is down: nothing was committed for the batch
                self.housekeeping()
                liveness.beat()
        finally:
            self._settle()  # a batch still being written is committed if its write succeeds
            if self._failed is None:
                self._commit_stored()

    def _step(self) -> None:
        if self._paused:
            self.consumer.resume(self._paused)
            self._paused = []
        records = self._collect()
        prepared = self.prepare(records) if records else None
        self._settle()
        if self._failed is not None:
            failed, error = self._failed
            self._failed = None
            self._batch = failed + records  # rewind to the earliest of both batches
            raise error
        self._commit_stored()
        records, prepared = self._top_up(records, prepared)
        if records:
            self._inflight = InFlight(records, self._writer.submit(self.handler, prepared))
        self._note_recovery()
        self._batch = []

    def _top_up(self, records: list[Message], prepared: Any) -> tuple[list[Message], Any]:
        """The batch about to be written, with the records of quiet partitions that came while the last one
        was written (N98): they wait for one write, not two. Only partitions with a few records waiting
        give theirs, each whole, so a partition's records stay in order and a flood is not taken twice."""
        if self._ahead is None:
            return records, prepared
        quiet = self._ahead.quiet(most=self.max_records // 4, short=max(1, self.max_records // 20))
        if len(self._batch) != len(records):  # a revoke during the fetch dropped some: prepare what is left
            records = list(self._batch)
            prepared = self.prepare(records) if records else None
        if not quiet:
            return records, prepared
        more = self.prepare(quiet)
        return records + quiet, more if prepared is None else self.combine(prepared, more)

    def _note_recovery(self) -> None:
        # An empty poll right after a rewind is not a recovery: the failed batch is still to come.
        if self.status.retrying and not self._retry_pending:
            log.info("recovered", extra={"fields": {"after": self.status.retrying}})
            self.status.retrying = ""

    def _settle(self) -> None:
        """Wait for the batch being written; store its offsets, or keep its failure for the loop."""
        inflight, self._inflight = self._inflight, None
        if inflight is None:
            return
        try:
            inflight.future.result()
        except TransientError as exc:
            self._failed = (inflight.records, exc)
            return
        except Exception as exc:  # noqa: BLE001 (a bug in the handler must not pass for a write)
            raise FatalConsumerError(f"batch handler failed: {exc!r}") from exc
        self._store_offsets(inflight.records)
        self.status.batches += 1
        self.status.last_batch_at = time.monotonic()
        self._retry_pending = set()
        self._note_recovery()

    def _store_offsets(self, records: list[Message]) -> None:
        assigned = {(tp.topic, tp.partition) for tp in self.consumer.assignment()}
        offsets = [tp for tp in next_offsets(records) if (tp.topic, tp.partition) in assigned]
        if offsets:
            try:
                self.consumer.store_offsets(offsets=offsets)
            except KafkaException as exc:
                log.warning("offset store failed", extra={"fields": {"error": exc.args[0].str()}})
            self._uncommitted = True

    def _commit_stored(self) -> None:
        """Commit stored offsets without waiting: a lost commit only means a deduplicated re-read."""
        if not self._uncommitted:
            return
        self._uncommitted = False
        try:
            self.consumer.commit(asynchronous=True)
        except KafkaException as exc:
            if exc.args[0].code() != KafkaError._NO_OFFSET:
                log.warning("offset commit failed", extra={"fields": {"error": exc.args[0].str()}})

    def _collect(self) -> list[Message]:
        """Records until the batch is full or ``max_ms`` passed since its first record; while the stream
        runs slowly (``_slow``), also as soon as nothing more arrived for ``idle_ms`` and the writer
        has nothing to write."""
        self._batch = []
        deadline: float | None = None
        slow = self._slow()
        while not self.stop.is_set():
            timeout = 0.5 if deadline is None else deadline - time.monotonic()
            if timeout < 0.001:
                break
            # consume() blocks until it has num_messages or the timeout passed: waiting for the
            # first record asks for one, so a quiet topic does not hold a record for 0.5 s.
            wanted = 1 if deadline is None else self.max_records - len(self._batch)
            # The idle wait is for a pause after a record; the first record is awaited whole (consume()
            # returns as it comes): polled every idle_ms, a quiet worker spent a tenth of a core waiting.
            short = slow and self._batch
            messages = self._source.consume(num_messages=wanted,
                                             timeout=min(timeout, self.idle_ms / 1000) if short else timeout)
            for message in messages:
                error = message.error()
                if error is None:
                    self._batch.append(message)
                elif error.code() != KafkaError._PARTITION_EOF:
                    log.warning("consumer error", extra={"fields": {"error": error.str()}})
            if slow and not messages and self._batch and self._writer_idle():
                break  # a pause in a slow stream, and the writer is free: the window would only add latency
            if self._batch and deadline is None:
                deadline = time.monotonic() + self.max_ms / 1000
            if len(self._batch) >= self.max_records or (not messages and not self._batch):
                break
        self._last_size = len(self._batch)
        return list(self._batch)

    def _slow(self) -> bool:
        """The stream runs slowly: the last batch held under a twentieth of ``max_records``.

        Only then are batches cut at a pause. Under load, pauses fall between the client's fetches;
        batches cut there would be smaller and transactions more, for latency nobody waits on (and
        the short consume() calls would contend with the writer thread for the interpreter)."""
        return bool(self.idle_ms) and self._last_size < self.max_records // 20

    def _writer_idle(self) -> bool:
        """True when no batch is being written (a collected batch would be written at once)."""
        return self._inflight is None or self._inflight.future.done()

    def _before_sleep(self, state: RetryCallState) -> None:
        """Pause, and seek each partition of the failed batch back to its first record."""
        liveness.beat()  # waiting out a dependency's fault is the loop working, not stuck (N94)
        exc = state.outcome.exception() if state.outcome else None
        self.status.retrying = f"retrying: {exc}"
        log.warning("transient fault; pausing partitions", extra={"fields": {
            "error": str(exc), "attempt": state.attempt_number,
            "sleep_seconds": round(state.next_action.sleep, 2) if state.next_action else 0}})
        assignment = self.consumer.assignment()
        if assignment:
            self.consumer.pause(assignment)
            self._paused = assignment
        assigned = {(tp.topic, tp.partition) for tp in assignment}
        # Records read ahead are dropped too: each partition goes back to its first record not yet written.
        held = self._ahead.clear() if self._ahead is not None else []
        for (topic, partition), offset in first_offsets(self._batch + held).items():
            if (topic, partition) not in assigned:
                continue  # revoked meanwhile: its new owner starts from the committed offset
            self._retry_pending.add((topic, partition))
            try:
                self.consumer.seek(TopicPartition(topic, partition, offset))
            except KafkaException as exc:
                raise FatalConsumerError(f"cannot rewind {topic}[{partition}] to {offset}: {exc}") from exc
        self._batch = []
        self.housekeeping()  # e.g. a heartbeat saying we are retrying, when the database is reachable

    def close(self) -> None:
        """Commit what is stored, leave the group (revoke callbacks run), release the client."""
        try:
            self.consumer.close()
        except (KafkaException, RuntimeError) as exc:
            log.warning("consumer close failed", extra={"fields": {"error": str(exc)}})
        self._writer.shutdown(wait=True)

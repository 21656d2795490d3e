"""The one producer to the backbone: acks=all, idempotent, every delivery report awaited, a bounded wait.

``publish`` (blocking) and ``publish_async`` (an awaitable for async routes: it never blocks the
event loop) hand records to one librdkafka producer and wait at most ``timeout_seconds`` for their
delivery reports. They do not raise on a broker problem: the :class:`PublishResult` says which
records are durable (acknowledged by every in-sync replica), which the broker refused, and which
were still unconfirmed when the wait ended (they may land later; an idempotent retry with the same
event id is safe, ingest deduplicates on it). A background thread serves the delivery reports,
so concurrent callers each wait for their own records only, never for each other's.
"""

from __future__ import annotations

import asyncio
import atexit
import itertools
import os
import threading
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import partial
from typing import Any

from confluent_kafka import KafkaError, KafkaException, Producer

from hub.cloudevent.encode import KafkaRecord
from hub.kafka import ensure_topics, make_producer

EXIT_FLUSH_SECONDS = 5.0
POLL_SECONDS = 0.1  # how long the report thread blocks in poll() before looking at the stop flag
_NO_REPORT: Any = object()  # a batch slot whose record has no report yet


@dataclass(frozen=True, slots=True)
class Landed:
    """A durable record: where it landed."""

    index: int
    partition: int
    offset: int


@dataclass(frozen=True, slots=True)
class Refused:
    """A record the broker (or the local client) refused; ``retriable`` when sending again may work."""

    index: int
    error: str
    retriable: bool


@dataclass(frozen=True, slots=True)
class PublishResult:
    """What became of the records of one publish, by their index in the call."""

    topic: str
    landed: tuple[Landed, ...]
    refused: tuple[Refused, ...]
    unconfirmed: tuple[int, ...]  # no delivery report within the wait: the outcome is unknown

    @property
    def durable(self) -> bool:
        """Whether every record is acknowledged by every in-sync replica."""
        return not self.refused and not self.unconfirmed

    def describe_failure(self, noun: str = "records") -> str:
        """One line for a caller that reports the shortfall (empty when everything is durable)."""
        if self.durable:
            return ""
        total = len(self.landed) + len(self.refused) + len(self.unconfirmed)
        missing = len(self.refused) + len(self.unconfirmed)
        reason = f": {self.refused[0].error}" if self.refused else " in time"
        return f"the broker did not take {missing} of {total} {noun}{reason}"


class _Batch:
    """The delivery reports of one publish call, filled in by the report thread.

    One slot per record, written once (by its delivery report, or by the caller when produce()
    refused it), and a C counter that tells the last report: no lock and no object per report
    beyond what the report brings (N63). A list slot store and ``next()`` on a count are atomic.
    The last report calls ON_COMPLETE; the batch itself makes no ``threading.Event``: building one
    (a lock and a condition) was 7 % of the API's CPU under seed 003's single publishes, and only
    the blocking :meth:`BackboneProducer.publish` waits on one (N100).
    """

    def __init__(self, count: int, on_complete: Callable[[], None]) -> None:
        self._slots: list[Any] = [_NO_REPORT] * count  # (error, message) or a Refused
        self._reports = itertools.count(1)
        self._count = count
        self._on_complete = on_complete
        self.done = False  # every record reported
        # No `self.report = self._report` shortcut: the batch would refer to itself, and each batch (with
        # its future, its closure and its reports' messages) would wait for the cyclic collector (N110).

    def report(self, index: int, error: KafkaError | None, message: Any) -> None:
        """The delivery report of record INDEX (partial()-ed per record by the producer)."""
        self._slots[index] = (error, message)
        self._reported()

    def record(self, outcome: Refused) -> None:
        """A record refused before it was sent."""
        self._slots[outcome.index] = outcome
        self._reported()

    def _reported(self) -> None:
        if next(self._reports) == self._count:
            self.done = True
            self._on_complete()

    def result(self, topic: str) -> PublishResult:
        """A snapshot: reports that come after it are not counted (the wait is over)."""
        slots = list(self._slots)  # one C copy: a report landing now is either in it or not
        landed, refused, unconfirmed = [], [], []
        for index, slot in enumerate(slots):
            if slot is _NO_REPORT:
                unconfirmed.append(index)
            elif type(slot) is Refused:
                refused.append(slot)
            elif slot[0] is None:
                landed.append(Landed(index, slot[1].partition(), slot[1].offset()))
            else:
                refused.append(Refused(index, slot[0].str(), slot[0].retriable()))
        return PublishResult(topic, tuple(landed), tuple(refused), tuple(unconfirmed))


def _settle(done: asyncio.Future[None]) -> None:
    """End a wait for delivery reports: they all came, or its time is up (whichever is first)."""
    if not done.done():
        done.set_result(None)


class BackboneProducer:
    """A thread-safe producer with its own delivery-report thread; share one per process."""

    def __init__(self, client: Producer | None = None) -> None:
        self._client = client or make_producer()  # acks=all, enable.idempotence (hub.kafka)
        self._lock = threading.Lock()
        self._ready_topics: set[str] = set()
        self._stop = threading.Event()
        self._reports = threading.Thread(target=self._serve_reports, name="backbone-reports", daemon=True)
        self._reports.start()

    def _serve_reports(self) -> None:
        while not self._stop.is_set():
            self._client.poll(POLL_SECONDS)

    def ensure_topic(self, topic: str) -> None:
        """Create TOPIC when missing (once per producer; auto-creation is off on the brokers)."""
        if topic in self._ready_topics:  # no lock: a known topic never waits behind a new one's check
            return
        with self._lock:
            if topic not in self._ready_topics:
                ensure_topics([topic])
                self._ready_topics.add(topic)

    def _produce(self, topic: str, records: Sequence[KafkaRecord], batch: _Batch) -> None:
        report = batch.report  # one bound method a call, partial()-ed per record
        for index, record in enumerate(records):
            try:
                self._client.produce(topic, value=record.value, key=record.key, headers=list(record.headers),
                                     on_delivery=partial(report, index))
            except BufferError:
                batch.record(Refused(index, "the local produce queue is full", True))
            except Exception as exc:  # noqa: BLE001 (KafkaException, oversize...: a result, not a raise)
                batch.record(Refused(index, str(exc), False))

    def _topic_refusal(self, topic: str, records: Sequence[KafkaRecord]) -> PublishResult | None:
        """None when TOPIC exists (or was created); else every record refused, retriable."""
        try:
            self.ensure_topic(topic)
        except KafkaException as exc:
            error = f"the topic could not be checked or created: {exc.args[0] if exc.args else exc}"
            return PublishResult(topic, (), tuple(Refused(i, error, True) for i in range(len(records))), ())
        return None

    def publish(self, topic: str, records: Sequence[KafkaRecord], *, timeout_seconds: float = 10.0) -> PublishResult:
        """Produce RECORDS to TOPIC and wait at most TIMEOUT_SECONDS for their delivery reports."""
        if (refusal := self._topic_refusal(topic, records)) is not None:
            return refusal
        complete = threading.Event()
        batch = _Batch(len(records), on_complete=complete.set)
        self._produce(topic, records, batch)
        if records:
            complete.wait(timeout_seconds)
        return batch.result(topic)

    async def publish_async(self, topic: str, records: Sequence[KafkaRecord], *,
                            timeout_seconds: float = 10.0) -> PublishResult:
        """:meth:`publish` for the event loop: the wait is an await, the topic check runs in a thread."""
        if topic not in self._ready_topics and (
                refusal := await asyncio.to_thread(self._topic_refusal, topic, records)) is not None:
            return refusal
        loop = asyncio.get_running_loop()
        done = loop.create_future()

        def wake() -> None:
            try:
                loop.call_soon_threadsafe(_settle, done)
            except RuntimeError:  # a late report after the caller's loop closed: nobody waits any more
                pass

        batch = _Batch(len(records), on_complete=wake)
        self._produce(topic, records, batch)  # produce() only queues locally: it does not block
        if records and not batch.done:
            # The timeout is a timer settling the same future: wait_for(shield(...)) cost three times
            # as much per call, and the REST publisher makes one call per event (N66).
            timer = loop.call_later(timeout_seconds, _settle, done)
            try:
                await done
            finally:
                timer.cancel()
        return batch.result(topic)

    def close(self, timeout_seconds: float = 10.0) -> int:
        """Flush what is queued and stop the report thread; returns the records still undelivered."""
        left = self._client.flush(timeout_seconds)
        self._stop.set()
        self._reports.join(timeout=POLL_SECONDS * 5)
        return left


_shared: dict[int, BackboneProducer] = {}
_shared_lock = threading.Lock()


def shared_producer() -> BackboneProducer:
    """This process's producer, made on first use (a forked child makes its own: threads do not fork)."""
    pid = os.getpid()
    with _shared_lock:
        producer = _shared.get(pid)
        if producer is None:
            producer = _shared[pid] = BackboneProducer()
            atexit.register(producer.close, EXIT_FLUSH_SECONDS)  # stop its thread before the interpreter goes
        return producer

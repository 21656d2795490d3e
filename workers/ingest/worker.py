"""One ingestion worker process: producers' topics → tenant event logs and delivery jobs."""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Iterator
from typing import Any

import orjson
from confluent_kafka import Message, TopicPartition

from hub import tracing
from hub.cloudevent.decode import Event, Poison, decode_record
from hub.config import Settings
from hub.db import libpq_url
from hub.kafka import ensure_topics, make_consumer, make_producer
from hub.metrics import (
    CONSUMER_LAG, DEDUP_HITS, EVENTS_INGESTED, INGEST_BATCH_SECONDS, INGEST_BATCH_SIZE, JOBS_CREATED,
    POISON_RECORDS,
)
from workers.ingest.dlq import DeadLetterPublisher
from workers.ingest.heartbeat import Heartbeat
from workers.ingest.matching import SubscriptionCache
from workers.ingest.store import EventStore
from workers.ingest.topics import hub_topics, ingest_pattern
from workers.kafka_loop import BatchLoop, WorkerStatus, kafka_error_callback

log = logging.getLogger("hub.ingest")

LAG_INTERVAL_SECONDS = 5.0


class IngestWorker:
    """Consumes the producers' topics in one consumer group with its sibling processes."""

    def __init__(self, settings: Settings, stop: threading.Event) -> None:
        self.settings = settings
        self.status = WorkerStatus()
        on_error = kafka_error_callback(self.status)
        self.consumer = make_consumer(settings.kafka_consumer_group, **{
            "session.timeout.ms": settings.kafka_session_timeout_ms, "error_cb": on_error,
            "client.id": "streaming-hub-ingest",
            # The read-ahead (N98): how much of a flood ingest holds ahead of other tenants' records.
            "queued.max.messages.kbytes": settings.ingest_prefetch_kbytes,
            "max.partition.fetch.bytes": settings.ingest_partition_fetch_kbytes * 1024})
        timeout_ms = int(settings.dlq_produce_timeout_seconds * 1000)
        self.producer = make_producer(**{"message.timeout.ms": timeout_ms, "error_cb": on_error})
        self.cache = SubscriptionCache()
        self.store = EventStore(libpq_url(), self.cache)
        self.dlq = DeadLetterPublisher(self.producer, topic=settings.dlq_topic,
                                       topic_prefix=settings.kafka_topic_prefix,
                                       timeout_seconds=settings.dlq_produce_timeout_seconds)
        self.heartbeat = Heartbeat(libpq_url(), status=self.status, group=settings.kafka_consumer_group,
                                   prefix=settings.kafka_topic_prefix, interval=settings.ingest_heartbeat_seconds)
        self.loop = BatchLoop(
            self.consumer, self.write, prepare=self.decode, max_records=settings.ingest_batch_max_records,
            max_ms=settings.ingest_batch_max_ms,
            idle_ms=settings.ingest_batch_idle_ms, retry_max_seconds=settings.ingest_retry_max_seconds,
            stop=stop, status=self.status, housekeeping=self.housekeeping, on_revoked=self._forget_lag,
            read_ahead=settings.ingest_read_ahead_records, combine=self.combine,
        )
        self._lag_at = 0.0

    def run(self) -> None:
        settings = self.settings
        # The DLQ and the hub's own topics must exist before the subscription (N99); producer topics are
        # the producers'.
        ensure_topics(hub_topics(settings))
        pattern = ingest_pattern(settings.kafka_topic_prefix, settings.dlq_topic)
        self.loop.subscribe([pattern])
        log.info("ingestion worker started", extra={"fields": {
            "pattern": pattern, "group": settings.kafka_consumer_group, "worker": self.heartbeat.worker_id}})
        self.heartbeat.beat(force=True)
        try:
            self.loop.run()
        finally:
            self.loop.close()
            self.producer.flush(5)
            self.heartbeat.remove()
            self.store.close()
            log.info("ingestion worker stopped")

    def decode(self, records: list[Message]) -> tuple[list[Event], list[Poison], int]:
        """Stage one (consuming thread): CloudEvents and poison out of a batch of records."""
        events: list[Event] = []
        poisons: list[Poison] = []
        max_bytes = self.settings.kafka_max_record_bytes
        for record in records:
            decoded = decode_record(record, max_bytes=max_bytes)
            (events if isinstance(decoded, Event) else poisons).append(decoded)
        return events, poisons, len(records)

    @staticmethod
    def combine(first: tuple[list[Event], list[Poison], int],
                second: tuple[list[Event], list[Poison], int]) -> tuple[list[Event], list[Poison], int]:
        """Two decoded parts of one batch as one (a batch and its top-up)."""
        return first[0] + second[0], first[1] + second[1], first[2] + second[2]

    def write(self, decoded: tuple[list[Event], list[Poison], int]) -> None:
        """Stage two (writer thread): store in one transaction, quarantine poison before it commits."""
        started = time.perf_counter()
        events, poisons, size = decoded

        def before_commit(rejected: list[Poison]) -> None:
            quarantined = poisons + rejected
            if quarantined:
                self.dlq.send(quarantined)
                self.dlq.flush()  # raises unless acknowledged: the transaction then rolls back

        with tracing.linked_span("ingest batch", lambda: _producer_contexts(events)) as span:
            outcome = self.store.write(events, poisons, before_commit)
            span.set_attributes({"hub.events.inserted": outcome.inserted, "hub.jobs.created": outcome.jobs})
        EVENTS_INGESTED.inc(outcome.inserted)
        DEDUP_HITS.inc(outcome.duplicates)
        JOBS_CREATED.inc(outcome.jobs)
        for poison in poisons + outcome.rejected:
            POISON_RECORDS.labels(error_class=poison.error_class).inc()
            log.info("record quarantined", extra={"fields": {
                "topic": poison.topic, "partition": poison.partition, "offset": poison.offset,
                "error_class": poison.error_class, "reason": poison.message}})
        INGEST_BATCH_SIZE.observe(size)
        INGEST_BATCH_SECONDS.observe(time.perf_counter() - started)

    def housekeeping(self) -> None:
        self.heartbeat.beat()
        if time.monotonic() - self._lag_at >= LAG_INTERVAL_SECONDS:
            self._lag_at = time.monotonic()
            self._measure_lag()

    def _measure_lag(self) -> None:
        try:
            positions = self.consumer.position(self.consumer.assignment())
        except Exception:  # noqa: BLE001 (metrics are best effort)
            return
        for tp in positions:
            if tp.offset < 0:
                continue
            try:
                _low, high = self.consumer.get_watermark_offsets(tp, cached=True)
            except Exception:  # noqa: BLE001
                continue
            if high >= 0:
                CONSUMER_LAG.labels(topic=tp.topic, partition=str(tp.partition)).set(max(high - tp.offset, 0))

    def _forget_lag(self, partitions: list[TopicPartition]) -> None:
        for tp in partitions:
            try:
                CONSUMER_LAG.remove(tp.topic, str(tp.partition))
            except KeyError:
                pass


def _producer_contexts(events: list[Event]) -> Iterator[Any]:
    """Each event's ``traceparent`` extension, where it has one (its producer's context, N59)."""
    for event in events:
        if tracing.TRACEPARENT in event.attributes_json:
            yield orjson.loads(event.attributes_json).get(tracing.TRACEPARENT)


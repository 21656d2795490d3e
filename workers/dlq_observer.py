"""``hub dlq-observer``: one ``dlq_observations`` row per record on the dead-letter topic.

The row is built from the N20 headers; a missing or unreadable header becomes ``unknown`` (or
the field's default). ``tenant_id_raw`` is untrusted and only stored. ``error_message`` is
sanitized at capture (no secret, URL or host:port). Offsets are committed only after the insert
committed.

Inserts are idempotent on two keys. The DLQ record's own (topic, partition, offset) makes a
re-consumed DLQ record a no-op. The row ``id`` makes a re-quarantined poison record a no-op: an
ingestion worker that dies after its dead-letter produce was acknowledged but before its offset
commit dead-letters the same source record again, at a new DLQ offset. When the ``dlq-source-*``
headers locate the source record, the id is derived from its coordinates (``record_uuid``, a
UUIDv7 whose time is the source record's timestamp), so both copies get the same id; otherwise
(another producer writing to the DLQ, unreadable headers) the id is a fresh UUIDv7.
"""

from __future__ import annotations

import logging
import threading
import uuid
from datetime import UTC, datetime
from typing import Any

from confluent_kafka import Message

from hub import tracing
from hub.config import Settings, get_settings
from hub.db import libpq_url
from hub.dlq.sanitize import sanitize_error_message
from hub.dlq.models import DLQObservation
from hub.dlq.service import ERROR_CLASSES, UNKNOWN_TOPIC, is_topic_name
from hub.ids import new_id, record_uuid
from hub.kafka import ensure_topics, make_consumer
from hub.tableshape import column_list, pg_types
from workers.kafka_loop import BatchLoop, WorkerStatus, kafka_error_callback
from workers.runtime import DLQHeader, ReconnectingConnection, WorkerRuntime

log = logging.getLogger("hub.dlq_observer")

UNKNOWN = "unknown"
MAX_FIELD = 256
MAX_RETRY_COUNT = 2**31 - 1
MAX_PARTITION = 2**31 - 1  # Kafka partitions are int32
MAX_OFFSET = 2**63 - 1  # Kafka offsets are int64
MAX_TIMESTAMP_MS = 2**48 - 1  # the 48-bit time field of a UUIDv7
INSERT_SQL = f"""
INSERT INTO dlq_observations ({column_list(DLQObservation)})
SELECT * FROM unnest({", ".join(f"%s::{name}[]" for name in pg_types(DLQObservation))})
ON CONFLICT DO NOTHING
"""  # no conflict target: a duplicate id (the same source record) or DLQ coordinates both skip the row


def _headers(record: Message) -> dict[str, str]:
    """The record's headers as text; the last occurrence of a name wins (it was appended last)."""
    found: dict[str, str] = {}
    for name, raw in record.headers() or []:
        if raw is not None:
            found[name.lower()] = raw.decode("utf-8", errors="replace")
    return found


def _retry_count(text: str | None) -> int:
    try:
        return min(max(int(text or "0"), 0), MAX_RETRY_COUNT)
    except ValueError:
        return 0


def _instant(text: str | None, record: Message, fallback: datetime) -> datetime:
    if text:
        try:
            parsed = datetime.fromisoformat(text.strip().upper())
            if parsed.tzinfo is not None:
                return parsed.astimezone(UTC)
        except ValueError:
            pass
    _kind, timestamp_ms = record.timestamp()
    if timestamp_ms and timestamp_ms > 0:
        return datetime.fromtimestamp(timestamp_ms / 1000, UTC)
    return fallback


def _coordinate(text: str | None, limit: int) -> int | None:
    """A header's non-negative decimal value up to ``limit``, or None when it is not one."""
    text = (text or "").strip()
    # isdigit alone accepts non-ASCII digits, and int() accepts signs and underscores: neither is
    # what the worker writes. The length check keeps int() away from huge strings.
    if not (text.isascii() and text.isdigit()) or len(text) > len(str(limit)):
        return None
    value = int(text)
    return value if value <= limit else None


def observation_id(headers: dict[str, str]) -> uuid.UUID:
    """The id of the source record the headers locate, or a fresh UUIDv7 when they do not."""
    topic = headers.get(DLQHeader.SOURCE_TOPIC, "").strip()
    partition = _coordinate(headers.get(DLQHeader.SOURCE_PARTITION), MAX_PARTITION)
    offset = _coordinate(headers.get(DLQHeader.SOURCE_OFFSET), MAX_OFFSET)
    timestamp_ms = _coordinate(headers.get(DLQHeader.SOURCE_TIMESTAMP), MAX_TIMESTAMP_MS)
    if not is_topic_name(topic) or partition is None or offset is None or timestamp_ms is None:
        return new_id()
    return record_uuid(topic, partition, offset, timestamp_ms)


def observation(record: Message, *, now: datetime) -> tuple[Any, ...]:
    """The ``dlq_observations`` row of one dead-letter record, in the table's column order."""
    headers = _headers(record)
    topic = headers.get(DLQHeader.SOURCE_TOPIC, "").strip()
    error_class = headers.get(DLQHeader.ERROR_CLASS, "").strip()
    return (
        observation_id(headers),
        topic if topic and is_topic_name(topic) else UNKNOWN_TOPIC,
        error_class if error_class in ERROR_CLASSES else UNKNOWN,
        sanitize_error_message(headers.get(DLQHeader.ERROR_MESSAGE, "")),
        _retry_count(headers.get(DLQHeader.RETRY_COUNT)),
        _instant(headers.get(DLQHeader.FIRST_FAILURE_AT), record, now),
        (headers.get(DLQHeader.PRODUCER_ID, "").strip() or UNKNOWN)[:MAX_FIELD],
        now,
        headers.get(DLQHeader.TENANT_ID_RAW, "")[:MAX_FIELD],  # untrusted: stored, never used to scope
        record.topic(), record.partition(), record.offset(),
    )


class DLQObserver:
    """Consumes the dead-letter topic in its own group and records every record once."""

    def __init__(self, settings: Settings, stop: threading.Event) -> None:
        self.settings = settings
        self.status = WorkerStatus()
        self.consumer = make_consumer(settings.kafka_dlq_group, **{
            "session.timeout.ms": settings.kafka_session_timeout_ms,
            "error_cb": kafka_error_callback(self.status), "client.id": "streaming-hub-dlq-observer"})
        self.db = ReconnectingConnection(libpq_url(), application_name="hub-dlq-observer")
        self.loop = BatchLoop(self.consumer, self.handle, max_records=500, max_ms=200,
                              retry_max_seconds=settings.ingest_retry_max_seconds, stop=stop, status=self.status)

    def run(self) -> None:
        ensure_topics([self.settings.dlq_topic])
        self.loop.subscribe([self.settings.dlq_topic])
        log.info("dlq observer started", extra={"fields": {"topic": self.settings.dlq_topic}})
        try:
            self.loop.run()
        finally:
            self.loop.close()
            self.db.close()

    def handle(self, records: list[Message]) -> None:
        now = datetime.now(UTC)
        with tracing.linked_span("dlq observation batch", lambda: _producer_contexts(records)):
            rows = [observation(record, now=now) for record in records]
            columns = [list(column) for column in zip(*rows)]
            self.db.run(lambda conn: conn.execute(INSERT_SQL, columns))


def _producer_contexts(records: list[Message]) -> list[str]:
    """The producers' trace contexts a batch of dead letters kept (their binary-mode ``ce_traceparent``)."""
    return [found for record in records if (found := _headers(record).get("ce_traceparent"))]


def run() -> None:
    """Entry point of ``hub dlq-observer``."""
    settings = get_settings()
    # Its /metrics listener (HUB_DLQ_OBSERVER_METRICS_PORT, 0: none) is what a container probe can reach.
    port, host = settings.dlq_observer_metrics_address()
    runtime = WorkerRuntime.start("dlq-observer", log_level=settings.log_level, build_info=False,
                                  metrics_port=port, metrics_host=host)
    DLQObserver(settings, runtime.stop_event).run()

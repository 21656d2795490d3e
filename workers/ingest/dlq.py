"""Quarantine: poison records go to the dead-letter topic with the N20 headers, bytes intact.

The original key, value and headers are kept; the ``dlq-*`` headers are appended (a reader takes
the last occurrence of a name). Besides N20 they name the source record (``dlq-source-partition``,
``dlq-source-offset``, ``dlq-source-timestamp``): a batch retried after its dead-letter produces
were acknowledged quarantines the same record again, and the DLQ observer uses these coordinates
to store one observation for both copies. A batch's offsets move only after every dead-letter
produce of the batch was acknowledged by the broker: :meth:`DeadLetterPublisher.flush` raises
:class:`TransientError` otherwise, which rolls the batch back for a later retry.
"""

from __future__ import annotations

import logging
from datetime import UTC, datetime

from confluent_kafka import KafkaError, KafkaException, Producer

from hub.cloudevent.decode import Poison
from hub.dlq.sanitize import sanitize_error_message
from workers.kafka_loop import TransientError
from workers.runtime import DLQHeader

log = logging.getLogger("hub.ingest.dlq")

RETRY_COUNT = "0"  # poison is quarantined at first sight: no delivery was ever attempted


def rfc3339(moment: datetime) -> str:
    return moment.astimezone(UTC).isoformat(timespec="milliseconds").replace("+00:00", "Z")


def dlq_headers(poison: Poison, *, producer_id: str, failed_at: datetime) -> list[tuple[str, bytes]]:
    """The N20 headers plus the source record's partition, offset and timestamp (ms, decimal)."""
    values = {
        DLQHeader.SOURCE_TOPIC: poison.topic,
        DLQHeader.ERROR_CLASS: poison.error_class,
        DLQHeader.ERROR_MESSAGE: sanitize_error_message(poison.message),
        DLQHeader.RETRY_COUNT: RETRY_COUNT,
        DLQHeader.FIRST_FAILURE_AT: rfc3339(failed_at),
        DLQHeader.PRODUCER_ID: producer_id,
        DLQHeader.TENANT_ID_RAW: poison.tenant_raw[:256],
        DLQHeader.SOURCE_PARTITION: str(poison.partition),
        DLQHeader.SOURCE_OFFSET: str(poison.offset),
        DLQHeader.SOURCE_TIMESTAMP: str(poison.timestamp_ms),
    }
    return [(name, value.encode("utf-8")) for name, value in values.items()]


class DeadLetterPublisher:
    """Produces a batch's poison records and waits for every delivery report."""

    def __init__(self, producer: Producer, *, topic: str, topic_prefix: str, timeout_seconds: float) -> None:
        self.producer = producer
        self.topic = topic
        self.topic_prefix = topic_prefix
        self.timeout_seconds = timeout_seconds
        self._failures: list[KafkaError] = []
        self._oversized: list[tuple[Poison, list[tuple[str, bytes]]]] = []
        self._pending = 0

    def producer_id(self, poison: Poison) -> str:
        """The producing application: the record's ce source when readable, else its topic's name."""
        if poison.producer_id:
            return poison.producer_id[:256]
        if poison.topic.startswith(self.topic_prefix) and len(poison.topic) > len(self.topic_prefix):
            return poison.topic[len(self.topic_prefix):]
        return "unknown"

    def send(self, poisons: list[Poison]) -> None:
        """Queue the records (non-blocking); :meth:`flush` waits for them."""
        now = datetime.now(UTC)
        for poison in poisons:
            record = poison.record
            headers = list(record.headers() or []) + dlq_headers(
                poison, producer_id=self.producer_id(poison), failed_at=now)
            self._produce(poison, record.key(), record.value(), headers)

    def _produce(self, poison: Poison, key: bytes | None, value: bytes | None, headers: list) -> None:
        def delivered(error: KafkaError | None, _message: object) -> None:
            self._pending -= 1
            if error is None:
                return
            if error.code() == KafkaError.MSG_SIZE_TOO_LARGE and value is not None:
                self._oversized.append((poison, headers))
            else:
                self._failures.append(error)

        try:
            self.producer.produce(self.topic, key=key, value=value, headers=headers, on_delivery=delivered)
            self._pending += 1
        except KafkaException as exc:
            if exc.args[0].code() == KafkaError.MSG_SIZE_TOO_LARGE and value is not None:
                self._oversized.append((poison, headers))
            else:
                self._failures.append(exc.args[0])
        except BufferError:
            self.producer.poll(1.0)
            self._produce(poison, key, value, headers)

    def flush(self) -> None:
        """Wait for every report; raise :class:`TransientError` unless all were acknowledged."""
        self._drain()
        while self._oversized:
            # The record itself is too big for the DLQ topic: quarantine its identity instead,
            # with a header saying so, rather than let it vanish or block the partition.
            poison, headers = self._oversized.pop()
            size = len(poison.record.value() or b"")
            self._produce(poison, poison.record.key(), None,
                          headers + [(DLQHeader.VALUE_OMITTED, f"{size} bytes".encode())])
            self._drain()
        failures, self._failures = self._failures, []
        if failures:
            raise TransientError(f"dead-letter produce failed ({failures[0].name()})")

    def _drain(self) -> None:
        remaining = self.producer.flush(self.timeout_seconds)
        if remaining or self._pending > 0:
            # Do not leave them queued: the batch is retried and would quarantine them twice.
            self.producer.purge(in_queue=True, in_flight=False)
            self.producer.flush(1.0)
            self._pending = 0
            self._oversized.clear()
            self._failures.clear()
            raise TransientError("dead-letter produce not acknowledged (Kafka broker unavailable)")

"""What the Kafka batch loop reports and raises: a worker's status, its error kinds, the offsets of a batch.

Shared by the ingestion workers and the DLQ observer through :mod:`workers.kafka_loop`.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from confluent_kafka import KafkaError, Message, TopicPartition

log = logging.getLogger("hub.kafka_loop")


class TransientError(Exception):
    """A dependency is unavailable; the batch is retried later from its first record."""


class FatalConsumerError(Exception):
    """The consumer can no longer guarantee it will not skip a record; the process must restart."""


@dataclass
class WorkerStatus:
    """What a worker reports about itself (heartbeat rows, logs)."""

    retrying: str = ""
    kafka_error: str = ""
    kafka_error_at: float = 0.0
    batches: int = 0
    last_batch_at: float = field(default_factory=time.monotonic)

    @property
    def state(self) -> str:
        return "degraded" if self.detail else "healthy"

    @property
    def detail(self) -> str:
        if self.retrying:
            return self.retrying
        if self.kafka_error and time.monotonic() - self.kafka_error_at < 15:
            return self.kafka_error
        return ""


def record_key(record: Message) -> tuple[str, int]:
    return record.topic(), record.partition()


def first_offsets(records: list[Message]) -> dict[tuple[str, int], int]:
    first: dict[tuple[str, int], int] = {}
    for record in records:
        key = record_key(record)
        if key not in first or record.offset() < first[key]:
            first[key] = record.offset()
    return first


def next_offsets(records: list[Message]) -> list[TopicPartition]:
    """The offsets to commit after ``records``: one past the last record of each partition."""
    last: dict[tuple[str, int], int] = {}
    for record in records:
        key = record_key(record)
        last[key] = max(last.get(key, -1), record.offset())
    return [TopicPartition(topic, partition, offset + 1) for (topic, partition), offset in last.items()]


def partition_names(partitions: list[TopicPartition]) -> str:
    return ",".join(f"{tp.topic}[{tp.partition}]" for tp in partitions)


def kafka_error_callback(status: WorkerStatus) -> Callable[[Any], None]:
    """An ``error_cb`` that records broker trouble on the worker's status."""

    def on_error(error: KafkaError) -> None:
        if error.code() in (KafkaError._ALL_BROKERS_DOWN, KafkaError._TRANSPORT, KafkaError._RESOLVE):
            status.kafka_error = "Kafka broker unavailable"
            status.kafka_error_at = time.monotonic()
        log.warning("kafka client error", extra={"fields": {"error": error.str()}})

    return on_error

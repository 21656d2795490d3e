"""Ingestion test helpers: a private topic prefix, in-process workers on the real broker, waits."""

from __future__ import annotations

import threading
import time
import uuid
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any

import psycopg
import pytest
from cloudevents.core.bindings.kafka import KafkaMessage, to_binary_event, to_structured_event
from cloudevents.core.v1.event import CloudEvent
from confluent_kafka import TopicPartition

from hub.config import get_settings
from hub.db import libpq_url
from hub.kafka import ensure_topics, make_consumer, make_producer
from devkit.offsets import committed_offset
from devkit.poll import wait_until  # noqa: F401  (the ingest tests import it from here)


def cloud_event(tenant: str, *, ce_id: str | None = None, event_type: str = "transaction.posted",
                source: str = "ledger", data: Any = None, **extra: Any) -> CloudEvent:
    attributes = {"id": ce_id or str(uuid.uuid4()), "source": source, "type": event_type, "specversion": "1.0",
                  "tenantid": tenant, "datacontenttype": "application/json", **extra}
    return CloudEvent(attributes=attributes, data={"amount": 7} if data is None else data)


def binary(event: CloudEvent) -> KafkaMessage:
    return to_binary_event(event)


def structured(event: CloudEvent) -> KafkaMessage:
    return to_structured_event(event)


@dataclass
class Lane:
    """One test's private topic prefix, source topic and consumer groups (the broker is shared)."""

    prefix: str
    topic: str
    dlq_topic: str
    group: str
    producer: Any = field(repr=False)

    def send(self, *messages: KafkaMessage | tuple[dict[str, bytes], bytes | None, bytes | None]) -> None:
        for message in messages:
            if isinstance(message, KafkaMessage):
                key = message.key.encode() if isinstance(message.key, str) else message.key
                headers, value = message.headers, message.value
            else:
                headers, key, value = message
            self.producer.produce(self.topic, value=value, key=key, headers=list(headers.items()))
        assert self.producer.flush(15) == 0

    def end_offset(self, partition: int = 0) -> int:
        consumer = make_consumer(f"probe-{uuid.uuid4().hex[:8]}")
        try:
            return consumer.get_watermark_offsets(TopicPartition(self.topic, partition), timeout=10)[1]
        finally:
            consumer.close()

    def committed(self, partition: int = 0) -> int:
        """The ingestion group's committed offset on the source topic (-1001 when none, -1 not known yet)."""
        return committed_offset(self.group, self.topic, partition)

    def dlq_records(self, expected: int, timeout: float = 30.0) -> list[Any]:
        return self.read(self.dlq_topic, expected, timeout)

    def read(self, topic: str, expected: int, timeout: float = 30.0) -> list[Any]:
        """Up to ``expected`` records of partition 0 of ``topic``, from its start."""
        consumer = make_consumer(f"read-{uuid.uuid4().hex[:8]}")
        consumer.assign([TopicPartition(topic, 0, 0)])
        found: list[Any] = []
        deadline = time.monotonic() + timeout
        try:
            while len(found) < expected and time.monotonic() < deadline:
                found += [m for m in consumer.consume(num_messages=100, timeout=0.5) if m.error() is None]
        finally:
            consumer.close()
        return found


@pytest.fixture
def lane(override_settings: Callable[..., None]) -> Lane:
    """A unique prefix with one single-partition source topic; settings point the workers at it."""
    prefix = f"t{uuid.uuid4().hex[:10]}."
    group = f"ingest-{prefix}"
    override_settings(kafka_topic_prefix=prefix, kafka_consumer_group=group, kafka_dlq_group=f"dlq-{prefix}",
                      ingest_batch_max_ms=50, ingest_retry_max_seconds=1, ingest_heartbeat_seconds=0.5,
                      kafka_session_timeout_ms=6000)
    topic = f"{prefix}ledger"
    ensure_topics([topic, f"{prefix}dlq"], partitions=1)
    return Lane(prefix, topic, f"{prefix}dlq", group, make_producer())


@contextmanager
def running(factory: Callable[[threading.Event], Any]) -> Iterator[Any]:
    """Run ``factory(stop).run()`` in a thread; stop it (finish batch, commit, leave) on exit."""
    stop = threading.Event()
    worker = factory(stop)
    failure: list[BaseException] = []

    def target() -> None:
        try:
            worker.run()
        except BaseException as exc:  # noqa: BLE001 (reported to the test below)
            failure.append(exc)

    thread = threading.Thread(target=target, daemon=True)
    thread.start()
    try:
        yield worker
    finally:
        stop.set()
        thread.join(30)
    assert not thread.is_alive(), "worker did not stop"
    assert not failure, f"worker crashed: {failure[0]!r}"


@contextmanager
def ingest_worker() -> Iterator[Any]:
    from workers.ingest.worker import IngestWorker

    with running(lambda stop: IngestWorker(get_settings(), stop)) as worker:
        yield worker


@contextmanager
def dlq_observer() -> Iterator[Any]:
    from workers.dlq_observer import DLQObserver

    with running(lambda stop: DLQObserver(get_settings(), stop)) as observer:
        yield observer


def scalar(query: str, params: tuple = ()) -> Any:
    with psycopg.connect(libpq_url()) as connection:
        return connection.execute(query, params).fetchone()[0]


def rows(query: str, params: tuple = ()) -> list[tuple]:
    with psycopg.connect(libpq_url()) as connection:
        return connection.execute(query, params).fetchall()


def stored(tenant: str) -> int:
    return scalar("SELECT count(*) FROM event_log WHERE tenant_id = %s", (tenant,))


def insert_subscription(tenant: str, *, bump: bool = True, **columns: Any) -> str:
    """A subscription row written straight to the table (and the version counter moved)."""
    from sqlalchemy import text

    from hub.db import session_scope
    from hub.subscription.models import Subscription

    values = {"sink_kind": "webhook", "endpoint": "https://hooks.example/h", "verification_state": "active",
              **columns}
    subscription = Subscription(tenant_id=tenant, name=f"s-{uuid.uuid4().hex[:6]}", **values)
    with session_scope() as session:
        session.add(subscription)
        if bump:
            session.execute(text("UPDATE subscription_versions SET version = version + 1 WHERE id = 1"))
    return str(subscription.id)

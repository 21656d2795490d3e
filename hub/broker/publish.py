"""Publishing a broker event (E1, E6, E7): encode it, produce it durably, wait until it is stored.

The event is a CloudEvent (source ``event-broker``, subject the topic, time its ts, id a fresh
uuid), produced with the shared backbone producer onto ``<prefix>event-broker`` keyed by the
Main Topic. Ingest stores it in the tenant's event log; the answer waits, bounded, until that row
exists (the feed of :mod:`hub.broker.feed` says so), so a history read right after it returns the
event (read-your-writes).
"""

from __future__ import annotations

import asyncio
import time
from typing import Any

import uuid_utils
from sqlalchemy import Engine, text

from hub.backbone.outbound import OutboundEvent, to_record, topic_for
from hub.backbone.producer import shared_producer
from hub.broker.errors import EventNotStored, InvalidBrokerInput
from hub.broker.feed import live_feed
from hub.broker.grammar import Topic
from hub.broker.history import history_item
from hub.broker.projection import BROKER_SOURCE, from_millis
from hub.cloudevent.encode import STRUCTURED, InvalidEvent, KafkaRecord
from hub.config import get_settings
from hub.errors import ServiceUnavailable

STORED_SQL = text("SELECT 1 FROM event_log WHERE tenant_id = :tenant AND source = :source AND ce_id = :id")
FIRST_POLL_SECONDS, MAX_POLL_SECONDS = 0.005, 0.05


def broker_topic() -> str:
    """The backbone topic of broker events."""
    return topic_for(BROKER_SOURCE)


def build_record(*, tenant_id: str, topic: Topic, event_type: str, data: Any, ts: int) -> KafkaRecord:
    """The Kafka record of one broker event; 422 when ingest would refuse it."""
    # uuid_utils: the standard library's uuid4 reads the kernel's random source on every call, 8 µs of a
    # single publish (N100); this one is a v4 UUID too, from a seeded generator.
    event = OutboundEvent(source=BROKER_SOURCE, event_type=event_type, tenant_id=tenant_id,
                          event_id=str(uuid_utils.uuid4()), time=from_millis(ts), data=data, subject=topic.text,
                          partition_key=topic.main)
    try:
        return to_record(event, mode=STRUCTURED)
    except InvalidEvent as exc:
        raise InvalidBrokerInput(errors=[{"location": "data", "message": exc.message}]) from None


def _stored(engine: Engine, tenant_id: str, event_id: str) -> bool:
    with engine.connect() as connection:
        return connection.execute(STORED_SQL, {"tenant": tenant_id, "source": BROKER_SOURCE,
                                               "id": event_id}).first() is not None


async def wait_until_stored(engine: Engine, *, tenant_id: str, event_id: str, timeout_seconds: float) -> None:
    """Poll (5 ms doubling to 50 ms) until ingest stored the event; 503 ``event_not_stored`` past the wait.

    With a zero TIMEOUT_SECONDS: one look."""
    deadline = time.monotonic() + timeout_seconds
    pause = FIRST_POLL_SECONDS
    while not await asyncio.to_thread(_stored, engine, tenant_id, event_id):
        if time.monotonic() >= deadline:
            raise EventNotStored(f"event {event_id} is durable on the backbone but was not stored within "
                                 f"{timeout_seconds:g} s; it will be stored, and history will show it")
        await asyncio.sleep(pause)
        pause = min(pause * 2, MAX_POLL_SECONDS)


async def publish_event(*, engine: Engine, tenant_id: str, topic: Topic, event_type: str,
                        data: Any) -> dict[str, Any]:
    """Publish one event on exactly TOPIC; returns it as a history item once it is stored.

    The wait is the feed's notification of the stored event (registered before the event is
    produced, so it cannot be missed), with one look at the event log when it does not come.
    """
    ts = time.time_ns() // 1_000_000
    record = build_record(tenant_id=tenant_id, topic=topic, event_type=event_type, data=data, ts=ts)
    event_id, settings, feed = record.event.ce_id, get_settings(), live_feed()
    stored = await feed.expect(tenant_id, event_id)
    try:
        result = await shared_producer().publish_async(broker_topic(), [record],
                                                       timeout_seconds=settings.broker_publish_timeout_seconds)
        if not result.durable:
            raise ServiceUnavailable(f"the event was not published: {result.describe_failure('events')}")
        try:
            await asyncio.wait_for(stored, settings.broker_store_wait_seconds)
        except TimeoutError:
            await wait_until_stored(engine, tenant_id=tenant_id, event_id=event_id, timeout_seconds=0)
    finally:
        feed.forget(tenant_id, event_id)
    return history_item(event_id, topic.text, event_type, record.event.data_json, ts)

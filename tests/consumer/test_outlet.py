"""The relay's outlet against the stack's RabbitMQ: a page of event-log rows reaches the queues bound to the
tenant's exchange whole and in order, a body larger than a frame arrives intact, an event no binding selects
is dropped (not returned, not a failure), and a closed connection shows as closed."""

from __future__ import annotations

import asyncio
import uuid
from datetime import UTC, datetime

import aio_pika

from hub.config import get_settings
from hub.consumer import messages
from hub.consumer.filters import FilterGroup, bindings
from hub.consumer.outlet import Outlet
from hub.consumer.topology import tenant_exchange

NOW = datetime(2026, 12, 6, 12, 0, tzinfo=UTC)


def row(seq: int, event_type: str, message: dict, resource: str | None = None) -> tuple:
    """An event-log row as the relay reads it: seq, type, source, attributes, data, time, received."""
    attributes = {"principalidentity": "svc@example.com", "publishedat": "2026-12-06T12:00:01Z"}
    if resource:
        attributes["resourceid"] = resource
    return seq, event_type, "event-publisher-service", attributes, message, NOW, NOW


async def _relay_page(rows: list[tuple]) -> list[aio_pika.abc.AbstractIncomingMessage]:
    tenant = f"outlet-{uuid.uuid4().hex[:8]}"
    connection = await aio_pika.connect(get_settings().rabbitmq_url)
    outlet = await Outlet.open()
    try:
        channel = await connection.channel()
        exchange = await channel.declare_exchange(tenant_exchange(tenant), aio_pika.ExchangeType.TOPIC, durable=True)
        queue = await channel.declare_queue(exclusive=True)
        for key in bindings([FilterGroup("kept.created"), FilterGroup("kept.updated")]):
            await queue.bind(exchange, routing_key=key)
        await outlet.publish(tenant, rows)
        received = []
        for _ in range(50):  # a confirm follows the enqueue; the queue's count may lag a little behind it
            if (message := await queue.get(fail=False, timeout=5)) is not None:
                received.append(message)
                await message.ack()
            elif len(received) >= 3:
                break
            else:
                await asyncio.sleep(0.1)
        await exchange.delete()
        return received
    finally:
        await outlet.close()
        assert outlet.is_closed
        await connection.close()


def test_a_page_arrives_whole_and_in_order() -> None:
    big = {"blob": "x" * 300_000}  # more than one content frame
    rows = [row(1, "kept.created", {"n": 1}, "/a/b"), row(2, "dropped.created", {"n": 2}),
            row(3, "kept.created", big), row(4, "kept.updated", {"n": 4}, "/a")]
    received = asyncio.run(_relay_page(rows))
    events = [messages.decode(message.body, message.headers) for message in received]
    assert [event.message for event in events] == [{"n": 1}, big, {"n": 4}]
    assert [event.resource_id for event in events] == ["/a/b", None, "/a"]
    assert [message.headers[messages.SEQ_HEADER] for message in received] == ["1", "3", "4"]
    assert [message.message_id for message in received] == ["1", "3", "4"]
    assert all(message.delivery_mode == aio_pika.DeliveryMode.PERSISTENT for message in received)
    assert all(message.content_type == "application/json" for message in received)
    assert events[0].principal_identity == "svc@example.com" and events[0].event_type == "kept.created"

"""The streams' consuming channel (hub.amqp.consuming, N89): its ack frames and header reading checked against
pamqp, and its deliveries, acks, end and close against the stack's RabbitMQ."""

from __future__ import annotations

import asyncio
import uuid

import aio_pika
import pytest
from pamqp import commands, frame

from hub.amqp.client import AmqpClosed
from hub.amqp.consuming import ACK, NACK, REJECT, ConsumingChannel, headers_of, settle_frame
from hub.consumer import topology


def test_settle_frames_are_pamqp_encodings():
    """Each hand-encoded basic.ack / nack / reject is byte for byte pamqp's."""
    tag = 2**40 + 7
    assert settle_frame(3, ACK, tag, 1) == frame.marshal(commands.Basic.Ack(tag, multiple=True), 3)
    assert settle_frame(3, ACK, tag, 0) == frame.marshal(commands.Basic.Ack(tag), 3)
    assert settle_frame(5, NACK, tag, 2) == frame.marshal(commands.Basic.Nack(tag, requeue=True), 5)
    assert settle_frame(5, REJECT, tag, 0) == frame.marshal(commands.Basic.Reject(tag, requeue=False), 5)


def test_headers_are_read_past_the_fields_before_them():
    """The headers table, after a content type and encoding, whatever its values' types; none without it."""
    headers = {"hub-resource-id": "r-1", "hub-event-seq": "42", "n": 7, "nested": {"a": True}}
    full = commands.Basic.Properties(content_type="application/json", content_encoding="gzip", headers=headers,
                                     delivery_mode=2, message_id="m")
    assert headers_of(full.marshal()) == headers
    assert headers_of(commands.Basic.Properties(content_type="text/plain", delivery_mode=2).marshal()) == {}


async def _queue_with(broker: topology.ConsumerRabbit, bodies: list[bytes]) -> str:
    name = f"hub.test.lean-{uuid.uuid4().hex[:12]}"
    async with await broker.channel() as channel:
        await channel.declare_queue(name, durable=False, auto_delete=False)
        for body in bodies:
            await channel.default_exchange.publish(
                aio_pika.Message(body, headers={"hub-resource-id": "r-9"}), routing_key=name)
    return name


async def _drained(channel: ConsumingChannel, count: int) -> list[tuple[int, bytes, bytes]]:
    found = []
    while len(found) < count:
        await channel.wait(5)
        assert channel.deliveries, f"{len(found)} of {count} deliveries arrived"
        while channel.deliveries:
            found.append(channel.deliveries.popleft())
    return found


def test_deliveries_arrive_whole_and_what_is_not_acked_comes_back():
    """Bodies of one, several and no frames arrive whole with their headers; on close the unacknowledged one
    is requeued and the channel's number is free again; the acked and rejected ones are gone."""
    bodies = [b"small", bytes(range(256)) * 1200, b""]  # the second spans three frames of 128 KiB

    async def scenario() -> None:
        broker = topology.ConsumerRabbit()
        name = await _queue_with(broker, bodies)
        connection = await broker.lean()
        channel = await connection.channel(confirm=False, consuming=True)
        await channel.consume(name, prefetch=10)
        got = await _drained(channel, 3)
        assert [body for _, body, _ in got] == bodies
        assert all(headers_of(properties) == {"hub-resource-id": "r-9"} for _, _, properties in got)
        channel.ack(got[0][0])
        channel.reject(got[2][0], requeue=False)
        await channel.close()
        assert channel.ended and channel.number not in connection._channels  # noqa: SLF001
        again = await connection.channel(confirm=False, consuming=True)
        await again.consume(name, prefetch=10)
        assert [body for _, body, _ in await _drained(again, 1)] == [bodies[1]]
        await asyncio.sleep(0.3)
        assert not again.deliveries
        await again.close()
        async with await broker.channel() as plain:
            await plain.queue_delete(name)
        await broker.close()

    asyncio.run(scenario())


def test_a_missing_queue_is_a_404_and_a_deleted_one_ends_the_consumer():
    async def scenario() -> None:
        broker = topology.ConsumerRabbit()
        connection = await broker.lean()
        channel = await connection.channel(confirm=False, consuming=True)
        with pytest.raises(AmqpClosed) as caught:
            await channel.consume(f"hub.test.lean-missing-{uuid.uuid4().hex[:8]}", prefetch=1)
        assert (caught.value.code, caught.value.scope) == (404, "channel") and channel.ended
        name = await _queue_with(broker, [])
        channel = await connection.channel(confirm=False, consuming=True)
        await channel.consume(name, prefetch=1)
        waiting = asyncio.create_task(channel.wait(10))
        await asyncio.sleep(0.2)
        async with await broker.channel() as plain:
            await plain.queue_delete(name)
        await asyncio.wait_for(waiting, 5)  # woken by the broker's basic.cancel, not by the timeout
        assert channel.cancelled and channel.ended and not connection.is_closed
        await channel.close()
        await broker.close()

    asyncio.run(scenario())

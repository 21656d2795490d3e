"""``publish_confirmed`` against the stack's RabbitMQ: a batch in one write, each message confirmed, bodies
larger than a frame cut and put together again, order kept, and a refused batch raising."""

from __future__ import annotations

import asyncio
import uuid

import aio_pika
import aiormq
import pytest

from hub.config import get_settings
from hub.consumer.amqp_batch import Outgoing, body_frames, publish_confirmed


def test_body_frames_cut_at_the_content_size() -> None:
    assert body_frames(b"", 4) == []
    assert [frame.value for frame in body_frames(b"abcdefghij", 4)] == [b"abcd", b"efgh", b"ij"]


async def _round_trip(bodies: list[bytes]) -> list[tuple[bytes, str, dict]]:
    connection = await aio_pika.connect(get_settings().rabbitmq_url)
    try:
        channel = await connection.channel(publisher_confirms=True)
        exchange = await channel.declare_exchange(f"test.batch.{uuid.uuid4().hex[:8]}", aio_pika.ExchangeType.TOPIC,
                                                  auto_delete=True)
        queue = await channel.declare_queue(exclusive=True)
        await queue.bind(exchange, routing_key="kept.#")
        batch = [Outgoing(f"kept.{n}", body, aiormq.spec.Basic.Properties(headers={"n": n}, delivery_mode=2))
                 for n, body in enumerate(bodies)]
        batch.append(Outgoing("dropped", b"unrouted", aiormq.spec.Basic.Properties()))
        await publish_confirmed(channel.channel, exchange.name, batch)
        received = []
        for _ in bodies:
            message = await queue.get(timeout=10)
            received.append((message.body, message.routing_key, message.headers))
            await message.ack()
        assert await queue.get(fail=False) is None  # the unrouted message went nowhere
        return received
    finally:
        await connection.close()


def test_a_batch_arrives_whole_and_in_order() -> None:
    big = bytes(range(256)) * 1200  # ~300 KB: more than one content frame
    bodies = [b"one", big, b"", b"four"]
    received = asyncio.run(_round_trip(bodies))
    assert [body for body, _, _ in received] == bodies
    assert [key for _, key, _ in received] == [f"kept.{n}" for n in range(len(bodies))]
    assert [headers["n"] for _, _, headers in received] == list(range(len(bodies)))


async def _to_missing_exchange() -> None:
    connection = await aio_pika.connect(get_settings().rabbitmq_url)
    try:
        channel = await connection.channel(publisher_confirms=True)
        await asyncio.wait_for(publish_confirmed(channel.channel, f"missing.{uuid.uuid4().hex}", [
            Outgoing("any", b"body", aiormq.spec.Basic.Properties())]), 10)
    finally:
        await connection.close()


def test_a_refused_batch_raises() -> None:
    with pytest.raises(aiormq.exceptions.AMQPError):
        asyncio.run(_to_missing_exchange())


async def _without_confirms() -> None:
    connection = await aio_pika.connect(get_settings().rabbitmq_url)
    try:
        channel = await connection.channel(publisher_confirms=False)
        await publish_confirmed(channel.channel, "", [Outgoing("any", b"body", aiormq.spec.Basic.Properties())])
    finally:
        await connection.close()


def test_a_channel_without_confirms_is_refused() -> None:
    with pytest.raises(ValueError, match="publisher confirms"):
        asyncio.run(_without_confirms())

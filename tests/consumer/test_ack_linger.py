"""A stream's acks reach RabbitMQ together, within ``ACK_LINGER``, and all of them before its channel
closes: on the next stream of the queue exactly what the client did not ack is delivered again (N80).
Against the stack's RabbitMQ, with the stream the gRPC servicer uses."""

from __future__ import annotations

import asyncio
import uuid
from datetime import UTC, datetime

import aio_pika

from hub.auth.credentials import ANY_TYPE
from hub.auth.tokens import Principal
from hub.consumer import messages, topology
from hub.consumer.access import Consumer
from hub.consumer.messages import ConsumerEvent
from hub.consumer.stream import ACK_LINGER, Delivery, Stream

TENANT = "ack-linger"


def consumer() -> Consumer:
    return Consumer(TENANT, Principal("consumer@example.com", TENANT), frozenset({ANY_TYPE}))


async def filled_queue(broker: topology.ConsumerRabbit, count: int) -> str:
    """A new durable queue holding events n = 0 … COUNT - 1, in order."""
    queue_id = f"linger-{uuid.uuid4().hex[:12]}"
    await topology.declare_queue(broker, tenant_id=TENANT, queue_id=queue_id, durable=True, keys=[])
    moment = datetime.now(UTC)
    async with await broker.channel() as channel:
        for n in range(count):
            body = messages.encode(ConsumerEvent("linger.test", "svc", moment, moment, {"n": n}))
            await channel.default_exchange.publish(aio_pika.Message(body), routing_key=topology.queue_name(queue_id))
    return queue_id


async def received(stream: Stream, count: int) -> list[Delivery]:
    found: list[Delivery] = []
    while len(found) < count:
        batch = await stream.next_batch(wait=10)
        assert batch, f"{len(found)} of {count} deliveries arrived"
        found += batch
    return found


async def redelivered(broker: topology.ConsumerRabbit, queue_id: str, count: int) -> list[int]:
    """The n of every event a new stream of QUEUE_ID receives (COUNT expected, then nothing)."""
    async with Stream(broker, queue_id=queue_id, consumer=consumer()) as stream:
        found = await received(stream, count)
        assert await stream.next_batch(wait=1.0) == []
    return sorted(int(delivery.event.message["n"]) for delivery in found)


def recorded_acks(stream: Stream) -> list[tuple[int, bool]]:
    """The basic.ack frames the stream's channel writes from now on, as (channel tag, multiple)."""
    frames: list[tuple[int, bool]] = []
    channel = stream._channel  # noqa: SLF001 (the frames on the wire are what is tested)
    write = channel.ack

    def ack(tag: int, *, multiple: bool = False) -> None:
        frames.append((tag, multiple))
        write(tag, multiple=multiple)

    channel.ack = ack
    return frames


def test_acks_of_one_linger_leave_as_one_multiple_frame() -> None:
    async def scenario() -> tuple[list[tuple[int, bool]], list[int], int]:
        broker = topology.ConsumerRabbit()
        queue_id = await filled_queue(broker, 6)
        async with Stream(broker, queue_id=queue_id, consumer=consumer()) as stream:
            sent = await received(stream, 6)
            frames = recorded_acks(stream)
            for delivery in sent[:4]:  # one request per response, as the seed's example client acks
                await stream.settle(acks=[delivery.tag])
            await asyncio.sleep(ACK_LINGER * 20)
            base = stream.base
        left = await redelivered(broker, queue_id, 2)
        await topology.delete_queue(broker, queue_id)
        await broker.close()
        return frames, left, sent[3].tag - base

    frames, left, fourth = asyncio.run(scenario())
    assert frames == [(fourth, True)]
    assert left == [4, 5]


def test_a_stream_that_ends_within_the_linger_keeps_every_ack() -> None:
    async def scenario() -> list[int]:
        broker = topology.ConsumerRabbit()
        queue_id = await filled_queue(broker, 8)
        async with Stream(broker, queue_id=queue_id, consumer=consumer()) as stream:
            tags = [delivery.tag for delivery in await received(stream, 8)]
            await stream.settle(acks=[tags[0]])
            await stream.settle(acks=[tags[1], tags[5]])
            await stream.settle(acks=[tags[3], 987654321], nacks=[tags[2], tags[3]])
            await stream.settle(acks=[tags[7]])
            # cut here, within the linger: the servicer's stream ends as the client goes
        left = await redelivered(broker, queue_id, 3)
        await topology.delete_queue(broker, queue_id)
        await broker.close()
        return left

    assert asyncio.run(scenario()) == [2, 4, 6]

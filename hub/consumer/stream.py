"""One consume stream on one queue: its own channel, its deliveries, its tags, its end (N39).

A stream's delivery tags are the channel's, offset by a random base per stream, so a tag from an
earlier stream is never mistaken for one of this stream (the seed: such a tag is skipped). The client's
acks reach RabbitMQ within ``ACK_LINGER`` seconds, those of a linger together in as few frames as
:func:`ack_frames` allows, and all of them before the stream's channel closes; a nack goes at once (N80). An event
the principal may not see (``consume_event_types``) is never sent: it is rejected without requeue,
which dead-letters it from a durable queue for an operator to see (N41). The stream ends with
:class:`QueueNotFound` when its queue is gone and :class:`ConsumerCancelled` when the broker took
its consumer or channel away while the queue stayed. A stream consumes through the hub's lean AMQP client
(:mod:`hub.amqp.consuming`, N89): its deliveries wait in its channel's deque, none in a queue of its own.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import random
from collections import deque
from dataclasses import dataclass

from hub.amqp.client import AmqpClosed, ConsumingChannel
from hub.amqp.consuming import headers_of
from hub.config import get_settings
from hub.consumer import messages, topology
from hub.consumer.access import Consumer
from hub.consumer.errors import BrokerUnavailable, ConsumerCancelled, QueueNotFound
from hub.consumer.holds import Holds
from hub.consumer.messages import ConsumerEvent
from hub.consumer.service import BROKER_FAULTS, touch

log = logging.getLogger("hub.consumer.stream")
WATCH_SECONDS = 0.5  # how often a waiting stream looks whether the broker took its consumer away
TAG_SPAN = 1 << 32
# Why linger: a client acks each response in a request of its own, and a frame per ack cost the stream
# and RabbitMQ (a quorum queue settles each frame through its log) more than the delivery itself.
ACK_LINGER = 0.005


@dataclass(frozen=True, slots=True)
class Delivery:
    tag: int
    event: ConsumerEvent
    body: bytes = b""  # the queue message's, which names the event (hub.consumer.messages)


class Stream:
    """Deliveries of one queue to one client; use ``async with Stream(...) as stream``."""

    def __init__(self, broker: topology.ConsumerRabbit, *, queue_id: str, consumer: Consumer,
                 prefetch: int | None = None) -> None:
        self.broker, self.queue_id, self.consumer = broker, queue_id, consumer
        self.prefetch = prefetch or get_settings().consumer_prefetch
        self.base = random.randrange(1, 1 << 30) * TAG_SPAN
        self._outstanding: set[int] = set()  # channel tags sent and not yet settled by the client
        self._sent_order: deque[int] = deque()  # the same tags and some settled ones, ascending
        self._unwritten_acks: set[int] = set()  # settled by the client, not yet acked on the channel
        self._ack_writer: asyncio.Task | None = None
        self._channel: ConsumingChannel | None = None
        self._holds = Holds(queue_id)

    async def __aenter__(self) -> Stream:
        try:
            connection = await self.broker.lean()
            self._channel = await connection.channel(confirm=False, consuming=True)
            await self._channel.consume(topology.queue_name(self.queue_id), prefetch=self.prefetch)
        except AmqpClosed as exc:
            await self._drop_channel()
            if exc.code == topology.NOT_FOUND and exc.scope == "channel":
                raise QueueNotFound("the queue no longer exists") from exc
            raise BrokerUnavailable() from exc
        except BROKER_FAULTS as exc:
            await self._drop_channel()
            raise BrokerUnavailable() from exc
        await asyncio.to_thread(touch, self.queue_id)
        return self

    async def _drop_channel(self) -> None:
        if self._channel is not None:
            with contextlib.suppress(Exception):
                await self._channel.close()

    async def __aexit__(self, *_: object) -> None:
        if self._ack_writer is not None:
            await asyncio.wait([self._ack_writer])  # at most ACK_LINGER; a cancelled writer would lose its acks
        with contextlib.suppress(Exception):
            self._write_acks()  # what the client acked stays acked: the acks leave before the channel.close
        await self._drop_channel()  # what is unacknowledged goes back to the queue
        with contextlib.suppress(Exception):
            await asyncio.to_thread(touch, self.queue_id)
        await self._holds.clear()

    def _alive(self) -> bool:
        return self._channel is not None and not self._channel.ended

    async def _ended(self) -> Exception:
        """Why the consumer went: the queue is gone, or the broker cancelled it."""
        with contextlib.suppress(*BROKER_FAULTS):
            if await topology.queue_consumers(self.broker, self.queue_id) is None:
                return QueueNotFound("the queue no longer exists")
        return ConsumerCancelled()

    async def next_batch(self, most: int = 100, wait: float = 1.0) -> list[Delivery]:
        """Up to MOST deliveries, waiting up to WAIT seconds for the first; raises when the stream ended."""
        await self._holds.report(len(self._outstanding))  # what the previous batches left unacknowledged
        channel = self._channel
        inbox = channel.deliveries
        if not inbox:
            loop = asyncio.get_running_loop()
            deadline = loop.time() + wait
            while not inbox:
                if channel.ended:
                    raise await self._ended()
                remaining = deadline - loop.time()
                if remaining <= 0:
                    return []
                await channel.wait(min(WATCH_SECONDS, remaining))
        batch: list[Delivery] = []
        admit = self._admit
        while inbox and len(batch) < most:
            delivery = admit(*inbox.popleft())
            if delivery is not None:
                batch.append(delivery)
        return batch

    def _admit(self, tag: int, body: bytes, properties: bytes) -> Delivery | None:
        try:
            event = messages.decode(body, headers_of(properties))
        except ValueError:
            event = None
        if event is None or not self.consumer.may_see(event.event_type):
            self._channel.reject(tag, requeue=False)  # never sent to this principal (N41)
            return None
        self._outstanding.add(tag)
        self._sent_order.append(tag)
        return Delivery(self.base + tag, event, body)

    def _known(self, tag: int) -> int | None:
        channel_tag = tag - self.base
        return channel_tag if channel_tag in self._outstanding else None

    async def settle(self, *, acks: list[int] = (), nacks: list[int] = ()) -> None:
        """Acknowledge ACKS (within ``ACK_LINGER``), then requeue NACKS at once; tags this stream does not
        hold are skipped."""
        channel = self._channel
        if channel is None or channel.is_closed:
            raise await self._ended()
        acked = {tag for tag in map(self._known, acks) if tag is not None}
        self._outstanding -= acked
        self._unwritten_acks |= acked
        if nacks:  # the acks first, while the nacked tags are outstanding: no multiple ack may cover them
            self._write_acks()
        for tag in nacks:
            channel_tag = self._known(tag)
            if channel_tag is not None:
                self._outstanding.discard(channel_tag)
                channel.nack(channel_tag, requeue=True)
        if self._unwritten_acks and self._ack_writer is None:
            self._ack_writer = asyncio.create_task(self._write_acks_soon())

    async def _write_acks_soon(self) -> None:
        await asyncio.sleep(ACK_LINGER)
        self._ack_writer = None
        with contextlib.suppress(Exception):  # a channel gone takes the unacked back: they are redelivered
            self._write_acks()

    def _write_acks(self) -> None:
        acked, self._unwritten_acks = self._unwritten_acks, set()
        channel = self._channel
        for tag, multiple in ack_frames(acked, self._lowest_outstanding()):
            channel.ack(tag, multiple=multiple)

    def _lowest_outstanding(self) -> int | None:
        order = self._sent_order
        while order and order[0] not in self._outstanding:
            order.popleft()
        return order[0] if order else None

    async def ack_later(self, tags: list[int], delay: float) -> None:
        """Auto-acknowledge TAGS after DELAY (the auto-ack streams; a drop before it redelivers them)."""
        await asyncio.sleep(delay)
        with contextlib.suppress(Exception):
            await self.settle(acks=tags)


def ack_frames(acked: set[int], floor: int | None) -> list[tuple[int, bool]]:
    """The basic.ack frames that settle ACKED: one ``multiple`` ack for every acked tag below FLOOR, the
    lowest tag still outstanding (a multiple ack settles all the channel's tags up to it), then one
    frame per remaining tag. Why: a client acks in batches, and a frame per tag cost more than the rest."""
    if not acked:
        return []
    below = [tag for tag in acked if floor is None or tag < floor]
    frames = [(max(below), True)] if below else []
    return frames + [(tag, False) for tag in sorted(acked) if floor is not None and tag > floor]

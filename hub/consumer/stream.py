"""One consume stream on one queue: its own channel, its deliveries, its tags, its end (N39).

A stream's delivery tags are the channel's, offset by a random base per stream, so a tag from an
earlier stream is never mistaken for one of this stream (the seed: such a tag is skipped). The client's
acks reach RabbitMQ within ``ACK_LINGER`` seconds, those of a linger together in as few frames as
:func:`ack_frames` allows, and all of them before the stream's channel closes; a nack goes at once (N80). An event
the principal may not see (``consume_event_types``) is never sent: it is rejected without requeue,
which dead-letters it from a durable queue for an operator to see (N41). The stream ends with
:class:`QueueNotFound` when its queue is gone and :class:`ConsumerCancelled` when the broker took
its consumer or channel away while the queue stayed.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import random
from collections import deque
from dataclasses import dataclass

import aiormq
from aio_pika.abc import AbstractChannel
from aiormq.abc import DeliveredMessage

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
        self._inbox: asyncio.Queue[DeliveredMessage] = asyncio.Queue()
        self._outstanding: set[int] = set()  # channel tags sent and not yet settled by the client
        self._sent_order: deque[int] = deque()  # the same tags and some settled ones, ascending
        self._unwritten_acks: set[int] = set()  # settled by the client, not yet acked on the channel
        self._ack_writer: asyncio.Task | None = None
        self._channel: AbstractChannel | None = None
        self._consumer_tag: str | None = None
        self._holds = Holds(queue_id)

    async def __aenter__(self) -> Stream:
        try:
            self._channel = await self.broker.channel(confirms=False)
            await self._channel.set_qos(prefetch_count=self.prefetch)
            name = topology.queue_name(self.queue_id)
            await self._channel.declare_queue(name, passive=True)
            # aiormq's consumer, not aio-pika's: its message wrapper cost a third of a delivery's CPU (N65)
            self._consumer_tag = (await self._channel.channel.basic_consume(name, self._receive)).consumer_tag
        except aiormq.exceptions.ChannelNotFoundEntity as exc:
            raise QueueNotFound("the queue no longer exists") from exc
        except BROKER_FAULTS as exc:
            raise BrokerUnavailable() from exc
        await asyncio.to_thread(touch, self.queue_id)
        return self

    async def _receive(self, message: DeliveredMessage) -> None:
        self._inbox.put_nowait(message)

    async def __aexit__(self, *_: object) -> None:
        if self._ack_writer is not None:
            await asyncio.wait([self._ack_writer])  # at most ACK_LINGER; a cancelled writer would lose its acks
        with contextlib.suppress(Exception):
            await self._write_acks()  # what the client acked stays acked
        with contextlib.suppress(Exception):
            if self._channel is not None and not self._channel.is_closed:
                await self._channel.close()  # what is unacknowledged goes back to the queue
        with contextlib.suppress(Exception):
            await asyncio.to_thread(touch, self.queue_id)
        await self._holds.clear()

    def _alive(self) -> bool:
        channel = self._channel
        return bool(channel and not channel.is_closed and self._consumer_tag in channel.channel.consumers)

    async def _ended(self) -> Exception:
        """Why the consumer went: the queue is gone, or the broker cancelled it."""
        with contextlib.suppress(*BROKER_FAULTS):
            if await topology.queue_consumers(self.broker, self.queue_id) is None:
                return QueueNotFound("the queue no longer exists")
        return ConsumerCancelled()

    async def next_batch(self, most: int = 100, wait: float = 1.0) -> list[Delivery]:
        """Up to MOST deliveries, waiting up to WAIT seconds for the first; raises when the stream ended."""
        await self._holds.report(len(self._outstanding))  # what the previous batches left unacknowledged
        loop = asyncio.get_running_loop()
        deadline, first = loop.time() + wait, None
        while first is None:
            if not self._inbox.empty():
                first = self._inbox.get_nowait()
                break
            if not self._alive():
                raise await self._ended()
            remaining = deadline - loop.time()
            if remaining <= 0:
                return []
            with contextlib.suppress(TimeoutError):
                async with asyncio.timeout(min(WATCH_SECONDS, remaining)):
                    first = await self._inbox.get()
        batch: list[Delivery] = []
        message: DeliveredMessage | None = first
        while message is not None:
            delivery = await self._admit(message)
            if delivery is not None:
                batch.append(delivery)
            message = self._inbox.get_nowait() if not self._inbox.empty() and len(batch) < most else None
        return batch

    async def _admit(self, message: DeliveredMessage) -> Delivery | None:
        tag = message.delivery.delivery_tag
        try:
            event = messages.decode(message.body, message.header.properties.headers)
        except ValueError:
            event = None
        if event is None or not self.consumer.may_see(event.event_type):
            await message.channel.basic_reject(tag, requeue=False)  # never sent to this principal (N41)
            return None
        self._outstanding.add(tag)
        self._sent_order.append(tag)
        return Delivery(self.base + tag, event, message.body)

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
            await self._write_acks()
        for tag in nacks:
            channel_tag = self._known(tag)
            if channel_tag is not None:
                self._outstanding.discard(channel_tag)
                await channel.channel.basic_nack(channel_tag, requeue=True, wait=False)
        if self._unwritten_acks and self._ack_writer is None:
            self._ack_writer = asyncio.create_task(self._write_acks_soon())

    async def _write_acks_soon(self) -> None:
        await asyncio.sleep(ACK_LINGER)
        self._ack_writer = None
        with contextlib.suppress(Exception):  # a channel gone takes the unacked back: they are redelivered
            await self._write_acks()

    async def _write_acks(self) -> None:
        acked, self._unwritten_acks = self._unwritten_acks, set()
        channel = self._channel
        for tag, multiple in ack_frames(acked, self._lowest_outstanding()):
            await channel.channel.basic_ack(tag, multiple=multiple, wait=False)

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

"""Dead-letter triage (``ManageDeadLetteredEvents``, N43): browse the one dead-letter queue, act per tag.

A session consumes ``hub.consumer.dead-letters`` on a channel of its own and shows each message with
its reason, origin queue and delivery count, read from the broker's ``x-death`` metadata. Tags are
the channel's, offset by a random base per session, like a consume stream's. Actions:

- REPLAY publishes a copy to the origin queue through the default exchange, ``mandatory`` and
  confirm-gated (E12): the dead-letter copy is acknowledged only after the broker confirms the copy
  was routed. A copy the broker returns (no such queue) is ORIGIN_QUEUE_DELETED, one it does not
  confirm is REPLAY_FAILED; both leave the dead-letter copy in place.
- DISCARD acknowledges the dead-letter copy.
- LEAVE keeps it unsettled in this session; it is back in the queue when the session ends.

Every action gets exactly one outcome; a tag this session does not hold is OUTCOME_UNSPECIFIED.
"""

from __future__ import annotations

import asyncio
import contextlib
import enum
import hashlib
import random
from dataclasses import dataclass
from datetime import UTC, datetime

import aio_pika
import aiormq
from aio_pika.abc import AbstractChannel, AbstractIncomingMessage

from hub.config import get_settings
from hub.consumer import messages, topology
from hub.consumer.errors import BrokerUnavailable, ConsumerCancelled
from hub.consumer.messages import ConsumerEvent

TAG_SPAN = 1 << 32
REPLAY_CONFIRM_SECONDS = 10.0
DROPPED_HEADERS = ("x-death", "x-first-death-exchange", "x-first-death-queue", "x-first-death-reason",
                   "x-last-death-exchange", "x-last-death-queue", "x-last-death-reason", "x-delivery-count")
BROKER_FAULTS = (aiormq.exceptions.AMQPError, ConnectionError, OSError, asyncio.TimeoutError)


class Reason(enum.IntEnum):
    """The seed's ``DeadLetteredEvent.Reason`` numbers."""

    UNSPECIFIED, DELIVERY_LIMIT, EXPIRED, MAXLEN = range(4)


class Action(enum.IntEnum):
    UNSPECIFIED, REPLAY, DISCARD, LEAVE = range(4)


class Outcome(enum.IntEnum):
    UNSPECIFIED, REPLAYED, DISCARDED, LEFT, ORIGIN_QUEUE_DELETED, REPLAY_FAILED = range(6)


REASONS = {"delivery_limit": Reason.DELIVERY_LIMIT, "expired": Reason.EXPIRED, "maxlen": Reason.MAXLEN}


@dataclass(frozen=True, slots=True)
class DeadLetter:
    """One browsed dead-letter message, as the session shows it."""

    tag: int
    reason: Reason
    origin_queue: str
    delivery_count: int
    dead_lettered_at: datetime | None
    event: ConsumerEvent
    key: str = ""  # stable across sessions (origin queue and body): how the REST form names a message


def message_key(origin_queue: str, body: bytes) -> str:
    """A dead-letter copy's name outside a session: its tags are the session's, this is the message's."""
    return hashlib.sha256(origin_queue.encode() + b"\n" + body).hexdigest()[:32]


@dataclass(frozen=True, slots=True)
class ActionResult:
    tag: int
    outcome: Outcome
    detail: str = ""


def _text(value: object) -> str:
    return value.decode() if isinstance(value, bytes) else str(value or "")


def death_of(headers: dict) -> tuple[Reason, str, datetime | None]:
    """The newest ``x-death`` entry's reason, origin queue name and time."""
    deaths = headers.get("x-death") or []
    latest = deaths[0] if deaths and isinstance(deaths[0], dict) else {}
    moment = latest.get("time")
    if isinstance(moment, datetime) and moment.tzinfo is None:
        moment = moment.replace(tzinfo=UTC)
    reason = REASONS.get(_text(latest.get("reason") or headers.get("x-first-death-reason")), Reason.UNSPECIFIED)
    queue = _text(latest.get("queue") or headers.get("x-first-death-queue"))
    return reason, queue, moment if isinstance(moment, datetime) else None


def delivery_count(headers: dict, reason: Reason) -> int:
    """ConsumerRabbit delivery attempts: the quorum queue's count, else what the reason implies."""
    counted = headers.get("x-delivery-count")
    if isinstance(counted, int) and counted > 0:
        return counted + (1 if reason is Reason.DELIVERY_LIMIT else 0)
    return get_settings().consumer_delivery_limit if reason is Reason.DELIVERY_LIMIT else 0


class TriageSession:
    """The dead-letter queue as one operator's session sees it; ``async with TriageSession(broker)``."""

    def __init__(self, broker: topology.ConsumerRabbit, *, prefetch: int | None = None) -> None:
        self.broker = broker
        self.prefetch = prefetch or get_settings().consumer_prefetch
        self.base = random.randrange(1, 1 << 30) * TAG_SPAN
        self.outbox: asyncio.Queue[DeadLetter | ActionResult] = asyncio.Queue()  # what to show, in order
        self._held: dict[int, AbstractIncomingMessage] = {}
        self._channel: AbstractChannel | None = None
        self._replay: AbstractChannel | None = None
        self._consumer_tag: str | None = None

    async def __aenter__(self) -> TriageSession:
        try:
            connection = await self.broker.connection()
            self._channel = await connection.channel(publisher_confirms=False)
            self._replay = await connection.channel(publisher_confirms=True, on_return_raises=True)
            await topology.declare_shared(self._channel)
            await self._channel.set_qos(prefetch_count=self.prefetch)
            queue = await self._channel.get_queue(topology.DEAD_LETTER_QUEUE, ensure=False)
            self._consumer_tag = await queue.consume(self._browse)
        except BROKER_FAULTS as exc:
            await self.__aexit__()
            raise BrokerUnavailable() from exc
        return self

    async def __aexit__(self, *_: object) -> None:
        for channel in (self._channel, self._replay):
            with contextlib.suppress(Exception):
                if channel is not None and not channel.is_closed:
                    await channel.close()  # what the session still holds goes back to the queue

    def alive(self) -> bool:
        channel = self._channel
        return bool(channel and not channel.is_closed and self._consumer_tag in channel.channel.consumers)

    def ensure_alive(self) -> None:
        if not self.alive():
            raise ConsumerCancelled()

    async def _browse(self, message: AbstractIncomingMessage) -> None:
        headers = dict(message.headers or {})
        reason, queue, moment = death_of(headers)
        try:
            event = messages.decode(message.body, headers)
        except ValueError:
            event = ConsumerEvent("", "", datetime.fromtimestamp(0, UTC), datetime.fromtimestamp(0, UTC), {})
        self._held[message.delivery_tag] = message
        origin = topology.queue_id_of(queue)
        self.outbox.put_nowait(DeadLetter(self.base + message.delivery_tag, reason, origin,
                                           delivery_count(headers, reason), moment, event,
                                           message_key(origin, message.body)))

    async def act(self, tag: int, action: int) -> None:
        """Apply ACTION to the message TAG names and put its one result in the outbox."""
        self.outbox.put_nowait(await self._apply(tag, action))

    async def _apply(self, tag: int, action: int) -> ActionResult:
        message = self._held.get(tag - self.base)
        if message is None:
            return ActionResult(tag, Outcome.UNSPECIFIED, "unknown delivery tag: already settled or not of this session")
        if action == Action.LEAVE:
            return ActionResult(tag, Outcome.LEFT)
        if action == Action.DISCARD:
            await self._settle(tag, message)
            return ActionResult(tag, Outcome.DISCARDED)
        if action == Action.REPLAY:
            return await self._replay_one(tag, message)
        return ActionResult(tag, Outcome.UNSPECIFIED, f"unknown action {action}")

    async def _settle(self, tag: int, message: AbstractIncomingMessage) -> None:
        self.ensure_alive()
        await message.ack()
        self._held.pop(tag - self.base, None)

    async def _replay_one(self, tag: int, message: AbstractIncomingMessage) -> ActionResult:
        _, queue, _ = death_of(dict(message.headers or {}))
        if not queue:
            return ActionResult(tag, Outcome.REPLAY_FAILED, "the message carries no origin queue")
        copy = aio_pika.Message(message.body, headers={key: value for key, value in (message.headers or {}).items()
                                                       if key not in DROPPED_HEADERS},
                                content_type=message.content_type, delivery_mode=aio_pika.DeliveryMode.PERSISTENT)
        try:
            async with asyncio.timeout(REPLAY_CONFIRM_SECONDS):
                await self._replay.default_exchange.publish(copy, routing_key=queue, mandatory=True)
        except aiormq.exceptions.PublishError:  # returned unroutable: the queue is gone
            return ActionResult(tag, Outcome.ORIGIN_QUEUE_DELETED,
                                f"origin queue {topology.queue_id_of(queue)} no longer exists")
        except BROKER_FAULTS:  # a nack, a timeout or a lost channel: not confirmed
            return ActionResult(tag, Outcome.REPLAY_FAILED, "the broker did not confirm the replay")
        await self._settle(tag, message)
        return ActionResult(tag, Outcome.REPLAYED, f"replayed to {topology.queue_id_of(queue)}")

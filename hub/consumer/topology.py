"""The consumer service's RabbitMQ objects, each named and declared here only (E11, N37, N38).

- one topic exchange per tenant (``hub.consumer.t.<digest>``), so no binding can ever select another
  tenant's events: the relay publishes each stored event there under its routing key (hub.consumer.filters);
- a durable queue is a quorum queue named ``hub.cq.<queue_id>`` with the delivery limit, the message TTL
  and maximum length of the settings, dead-lettering to the fanout ``hub.consumer.dlx``;
- a non-durable queue is a classic queue that expires once it has had no consumer for the reconnect grace;
- ``hub.consumer.dead-letters``, a durable classic queue bound to ``hub.consumer.dlx``, is the one
  dead-letter queue that triage browses.
"""

from __future__ import annotations

import asyncio
import hashlib
from collections.abc import Iterable

import aio_pika
import aiormq
from aio_pika.abc import AbstractChannel, AbstractConnection, ExchangeType

from hub.amqp.client import AmqpConnection
from hub.config import get_settings
from hub.providers.rabbitmq.sink import broker_target, connect_rabbitmq

QUEUE_PREFIX = "hub.cq."
DEAD_LETTER_EXCHANGE = "hub.consumer.dlx"
DEAD_LETTER_QUEUE = "hub.consumer.dead-letters"
NOT_FOUND = 404


def tenant_exchange(tenant_id: str) -> str:
    """The tenant's topic exchange (a digest: any tenant id fits the 255-byte name)."""
    return "hub.consumer.t." + hashlib.sha256(tenant_id.encode()).hexdigest()[:32]


def queue_name(queue_id: str) -> str:
    return QUEUE_PREFIX + queue_id


def queue_id_of(name: str) -> str:
    return name.removeprefix(QUEUE_PREFIX)


def durable_arguments() -> dict:
    settings = get_settings()
    arguments: dict = {"x-queue-type": "quorum", "x-dead-letter-exchange": DEAD_LETTER_EXCHANGE,
                       # RabbitMQ dead-letters a message whose count of returns passes the limit: the
                       # limit in deliveries is one more than the limit in returns (N39).
                       "x-delivery-limit": max(settings.consumer_delivery_limit - 1, 0)}
    if settings.consumer_message_ttl_seconds > 0:
        arguments["x-message-ttl"] = settings.consumer_message_ttl_seconds * 1000
    if settings.consumer_max_length > 0:
        arguments["x-max-length"] = settings.consumer_max_length
        arguments["x-overflow"] = "drop-head"
    return arguments


def non_durable_arguments() -> dict:
    grace_ms = max(int(get_settings().consumer_reconnect_grace_seconds * 1000), 1)
    return {"x-queue-type": "classic", "x-expires": grace_ms}


async def connect_lean(url: str | None = None) -> AmqpConnection:
    """A connection of the hub's lean AMQP client to the operator's broker (``rabbitmq_url`` unless URL: not
    SSRF-guarded, it is not a tenant's destination); the relay's outlet publishes and the streams consume on one."""
    settings = get_settings()
    target = broker_target(url or settings.rabbitmq_url, guarded=False)
    return await connect_rabbitmq(target, settings.rabbitmq_connect_timeout_seconds)


class ConsumerRabbit:
    """The consumer service's RabbitMQ (seed 000's queues; not the seed 003 event broker, not a sink's).

    One connection per process, opened again when lost; each call takes channels of its own. The streams
    consume on a second connection, the hub's lean client's (:meth:`lean`, N89).

    Not a self-healing connection: a stream whose connection dropped must end (the seed's "broker
    cancelled" error) rather than resume on a new channel, whose delivery tags would mean other messages.
    """

    def __init__(self, url: str | None = None) -> None:
        self.url = url or get_settings().rabbitmq_url
        self._connection: AbstractConnection | None = None
        self._lean: AmqpConnection | None = None
        self._lock = asyncio.Lock()

    async def connection(self) -> AbstractConnection:
        async with self._lock:
            if not _open(self._connection):
                timeout = get_settings().rabbitmq_connect_timeout_seconds
                self._connection = await aio_pika.connect(self.url, timeout=timeout)
            return self._connection

    async def channel(self, *, confirms: bool = True) -> AbstractChannel:
        return await (await self.connection()).channel(publisher_confirms=confirms)

    async def lean(self) -> AmqpConnection:
        """The streams' connection (the operator's broker: not SSRF-guarded), opened again when lost."""
        async with self._lock:
            if self._lean is None or self._lean.is_closed:
                self._lean = await connect_lean(self.url)
            return self._lean

    async def close(self) -> None:
        if self._connection is not None:
            await self._connection.close()
            self._connection = None
        if self._lean is not None:
            await self._lean.close()
            self._lean = None


def _open(connection: AbstractConnection | None) -> bool:
    """Whether CONNECTION still works: aio-pika marks a plain connection closed by the broker only on its
    transport, so both are looked at."""
    transport = getattr(connection, "transport", None)
    return bool(connection is not None and not connection.is_closed and transport is not None
                and not transport.connection.is_closed)


async def declare_shared(channel: AbstractChannel) -> None:
    """The dead-letter exchange and queue every durable queue shares."""
    exchange = await channel.declare_exchange(DEAD_LETTER_EXCHANGE, ExchangeType.FANOUT, durable=True)
    queue = await channel.declare_queue(DEAD_LETTER_QUEUE, durable=True, arguments={"x-queue-type": "classic"})
    await queue.bind(exchange)


async def declare_queue(broker: ConsumerRabbit, *, tenant_id: str, queue_id: str, durable: bool,
                        keys: Iterable[str]) -> None:
    """Declare the queue (idempotent) and bind it to the tenant's exchange by KEYS."""
    async with await broker.channel(confirms=False) as channel:
        if durable:
            await declare_shared(channel)
        exchange = await channel.declare_exchange(tenant_exchange(tenant_id), ExchangeType.TOPIC, durable=True)
        arguments = durable_arguments() if durable else non_durable_arguments()
        queue = await channel.declare_queue(queue_name(queue_id), durable=True, arguments=arguments)
        for key in sorted(set(keys)):
            await queue.bind(exchange, routing_key=key)


async def rebind(broker: ConsumerRabbit, *, tenant_id: str, queue_id: str, old: set[str], new: set[str]) -> None:
    """Bind the keys of NEW first, then unbind those only OLD has: no event falls between them."""
    async with await broker.channel(confirms=False) as channel:
        exchange = await channel.declare_exchange(tenant_exchange(tenant_id), ExchangeType.TOPIC, durable=True)
        queue = await channel.get_queue(queue_name(queue_id), ensure=True)
        for key in sorted(new - old):
            await queue.bind(exchange, routing_key=key)
        for key in sorted(old - new):
            await queue.unbind(exchange, routing_key=key)


async def queue_consumers(broker: ConsumerRabbit, queue_id: str) -> int | None:
    """The queue's consumer count, or None when it does not exist (a passive declare)."""
    declared = await _declared(broker, queue_id)
    return declared.consumer_count if declared is not None else None


async def queue_messages(broker: ConsumerRabbit, queue_id: str) -> int | None:
    """The messages ready in the queue, or None when it does not exist (a passive declare)."""
    declared = await _declared(broker, queue_id)
    return declared.message_count if declared is not None else None


async def queue_counts(broker: ConsumerRabbit, queue_id: str) -> tuple[int, int] | None:
    """(messages ready, consumers) of the queue, or None when it does not exist (a passive declare)."""
    declared = await _declared(broker, queue_id)
    return None if declared is None else (declared.message_count, declared.consumer_count)


async def _declared(broker: ConsumerRabbit, queue_id: str):  # noqa: ANN202 (aiormq's Queue.DeclareOk)
    channel = await broker.channel(confirms=False)
    try:
        queue = await channel.declare_queue(queue_name(queue_id), passive=True)
        return queue.declaration_result
    except aiormq.exceptions.ChannelNotFoundEntity:
        return None
    finally:
        if not channel.is_closed:
            await channel.close()


async def delete_queue(broker: ConsumerRabbit, queue_id: str) -> None:
    """Delete the queue with its messages (no error when it is already gone)."""
    async with await broker.channel(confirms=False) as channel:
        await channel.queue_delete(queue_name(queue_id))

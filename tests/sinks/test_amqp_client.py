"""The RabbitMQ sink's publishing client (hub.sinks.amqp): frame encoding checked against pamqp, and each
publish's outcome from its own confirm on the real local broker (acks, nacks, returns, many in flight)."""

from __future__ import annotations

import asyncio
import uuid

import pika
import pytest
from pamqp import commands
from pamqp.header import ContentHeader

from hub.config import get_settings
from hub.sinks.amqp import RETURNED, AmqpClosed, PropertiesEncoder, connect
from hub.sinks.rabbitmq import RabbitMQSink, broker_target
from hub.sinks.vocabulary import SinkKind
from tests.support.destinations import Rabbit, delivery, rabbit, unique  # noqa: F401 (rabbit is a fixture)


@pytest.fixture(autouse=True)
def _loopback_broker(override_settings) -> None:
    override_settings(egress_allow_cidrs="127.0.0.0/8")


def test_properties_encode_as_pamqp_does():
    """The hand-written content-header properties are byte for byte pamqp's encoding (which sorts the table's
    names; the order carries no meaning), and decode back."""
    headers = dict(sorted({"cloudEvents_id": "evt-1", "cloudEvents_note": "café ✓", "cloudEvents_empty": ""}.items()))
    for message_type in ("orders.created", None):
        ours = PropertiesEncoder().encode(content_type="application/cloudevents+json", headers=headers,
                                          delivery_mode=2, message_id="m-1", message_type=message_type,
                                          app_id="streaming-hub")
        reference = commands.Basic.Properties(content_type="application/cloudevents+json", headers=headers,
                                              delivery_mode=2, message_id="m-1", message_type=message_type,
                                              app_id="streaming-hub")
        assert ours == reference.marshal()
        decoded = ContentHeader()
        decoded.unmarshal(b"\x00\x3c\x00\x00" + (5).to_bytes(8, "big") + ours)
        assert decoded.properties.headers == headers and decoded.properties.message_type == message_type


async def _publish_all(url: str, exchange: str, keys: list[str]) -> list[object]:
    target = broker_target(url)
    connection = await connect(address=target.address, port=target.port, username=target.username,
                               password=target.password, vhost=target.vhost, timeout=5)
    try:
        channel = await connection.channel()
        futures = [channel.publish(exchange=exchange, routing_key=key, properties=PropertiesEncoder().encode(
            content_type="text/plain", headers={}, delivery_mode=2, message_id=f"m-{i}", message_type=None,
            app_id="tests"), message_id=f"m-{i}", body=b"x" * (i % 7), timeout=10) for i, key in enumerate(keys)]
        return list(await asyncio.gather(*futures, return_exceptions=True))
    finally:
        await connection.close()


def test_each_publish_gets_its_own_outcome_with_many_in_flight(rabbit):
    """2,000 publishes in flight on one channel (the broker confirms them with `multiple` acks), every 7th to a
    routing key no queue is bound for: exactly those are RETURNED, every other is acked and arrives."""
    exchange, queue = rabbit.exchange_with_queue("bound")
    keys = ["nowhere" if i % 7 == 3 else "bound" for i in range(2000)]
    outcomes = asyncio.run(_publish_all(rabbit.url, exchange, keys))
    assert [outcome is RETURNED for outcome in outcomes] == [key == "nowhere" for key in keys]
    assert all(outcome is True for outcome, key in zip(outcomes, keys, strict=True) if key == "bound")
    assert len(rabbit.drain(queue, limit=5000)) == keys.count("bound")


def test_a_nack_fails_only_its_own_publish(rabbit):
    """A queue that rejects publishes past its length nacks them: those publishes (and only those) are False,
    and the sink classes them destination_error."""
    exchange, queue = unique("hubx"), unique("hubxq")
    connection = pika.BlockingConnection(pika.URLParameters(rabbit.url))
    channel = connection.channel()
    channel.exchange_declare(exchange, "direct", durable=True)
    channel.queue_declare(queue, durable=True, arguments={"x-max-length": 3, "x-overflow": "reject-publish"})
    channel.queue_bind(queue, exchange, "bound")
    connection.close()
    rabbit.exchanges.append(exchange)
    rabbit.queues.append(queue)
    outcomes = asyncio.run(_publish_all(rabbit.url, exchange, ["bound"] * 5))
    assert outcomes == [True, True, True, False, False]
    item = delivery(SinkKind.rabbitmq, f"{exchange}/bound", credential={"uri": rabbit.url})

    async def one() -> object:
        sink = RabbitMQSink(settings=get_settings())
        try:
            return await sink.deliver(item)
        finally:
            await sink.close()

    result = asyncio.run(one())
    assert not result.ok and result.error_class == "destination_error" and "nacked" in result.detail


def test_a_missing_exchange_closes_its_channel_with_404(rabbit):
    """Publishing to an exchange that does not exist: the broker closes the channel (404) and every publish in
    flight on it fails with that reply code; a new channel on the same connection works."""

    async def run() -> tuple[list[object], bool]:
        target = broker_target(rabbit.url)
        connection = await connect(address=target.address, port=target.port, username=target.username,
                                   password=target.password, vhost=target.vhost, timeout=5)
        try:
            channel = await connection.channel()
            futures = [channel.publish(exchange=f"absent-{uuid.uuid4().hex}", routing_key="k", properties=b"\x00\x00",
                                       message_id=str(i), body=b"x", timeout=10) for i in range(3)]
            outcomes = await asyncio.gather(*futures, return_exceptions=True)
            again = await connection.channel()
            return outcomes, not again.is_closed
        finally:
            await connection.close()

    outcomes, reopened = asyncio.run(run())
    assert all(isinstance(o, AmqpClosed) and o.code == 404 and o.scope == "channel" for o in outcomes), outcomes
    assert reopened


def test_wrong_password_is_access_refused(rabbit):
    """A refused login ends the handshake with the broker's connection.close 403 (authentication_failure_close)."""
    target = broker_target(rabbit.url)
    with pytest.raises(AmqpClosed) as refused:
        asyncio.run(connect(address=target.address, port=target.port, username=target.username,
                            password="wrong", vhost=target.vhost, timeout=5))
    assert refused.value.code == 403 and refused.value.scope == "connection"


def test_fanned_out_event_keeps_each_delivery_id(rabbit):
    """Deliveries of one event (one attributes object, as the engine prepares a fan-out) share the encoded
    properties but each message carries its own delivery id as message_id, and the event's headers."""
    from dataclasses import replace

    exchange, queue = rabbit.exchange_with_queue("orders.created")
    first = delivery(SinkKind.rabbitmq, f"{exchange}/orders.created", credential={"uri": rabbit.url})
    fanned = [replace(first, delivery_id=str(uuid.uuid4())) for _ in range(3)]

    async def send() -> list:
        sink = RabbitMQSink(settings=get_settings())
        try:
            return await sink.deliver_many(fanned)
        finally:
            await sink.close()

    assert all(result.ok for result in asyncio.run(send()))
    got = rabbit.drain(queue)
    assert sorted(props.message_id for props, _ in got) == sorted(item.delivery_id for item in fanned)
    for props, _ in got:
        assert props.headers["cloudEvents_id"] == first.attributes["id"] and props.type == "orders.created"


def test_login_works_when_connection_start_came_before_it(rabbit):
    """On a busy loop the broker's connection.start can be read before the login coroutine runs: it is kept for
    the login, which then succeeds (it used to fail with KeyError, an `internal` attempt)."""
    from hub.sinks.amqp import AmqpConnection

    target = broker_target(rabbit.url)

    async def late_login() -> bool:
        loop = asyncio.get_running_loop()
        connection = AmqpConnection(loop)
        await loop.create_connection(lambda: connection, target.address, target.port)
        await asyncio.sleep(0.3)  # connection.start arrives and is read meanwhile
        await asyncio.wait_for(connection._open(username=target.username, password=target.password,
                                                vhost=target.vhost), 5)
        channel = await connection.channel()
        await connection.close()
        return channel.number == 1

    assert asyncio.run(late_login())

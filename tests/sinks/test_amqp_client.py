"""The RabbitMQ sink's publishing client (hub.amqp.client): frame encoding checked against pamqp, and each
publish's outcome from its own confirm on the real local broker (acks, nacks, returns, many in flight)."""

from __future__ import annotations

import asyncio
import uuid

import pika
import pytest
from pamqp import commands
from pamqp.header import ContentHeader

from hub.config import get_settings
from hub.amqp.client import RETURNED, AmqpClosed, PropertiesEncoder, connect
from hub.providers.rabbitmq.sink import RabbitMQSink, broker_target
from hub.sinks.vocabulary import SinkKind
from devkit.destinations import Rabbit, delivery, rabbit, unique  # noqa: F401 (rabbit is a fixture)


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
    from hub.amqp.client import AmqpConnection

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


async def _login(url: str):  # noqa: ANN202
    target = broker_target(url)
    return await connect(address=target.address, port=target.port, username=target.username,
                         password=target.password, vhost=target.vhost, timeout=5)


def test_passive_declare_of_an_existing_exchange_succeeds(rabbit):
    """The credential probe's check (R-putSubscriptionCredential-02/04): exchange.declare with passive on an exchange
    that exists answers declare-ok and leaves the channel and the connection open."""
    exchange, _ = rabbit.exchange_with_queue()

    async def run() -> tuple[bool, bool]:
        connection = await _login(rabbit.url)
        try:
            channel = await connection.channel(confirm=False)
            await asyncio.wait_for(channel.exchange_declare(exchange, passive=True), 5)
            return channel.is_closed, connection.is_closed
        finally:
            await connection.close()

    assert asyncio.run(run()) == (False, False)


def test_passive_declare_of_a_missing_exchange_closes_only_its_channel(rabbit):
    """R-putSubscriptionCredential-03 (destination_missing): a passive declare of an exchange that does not exist
    raises AmqpClosed 404 scoped to the channel; the connection stays open and a new channel on it works (a passive
    declare of an existing exchange there succeeds)."""
    exchange, _ = rabbit.exchange_with_queue()

    async def run() -> tuple[BaseException | None, bool, bool, bool]:
        connection = await _login(rabbit.url)
        try:
            channel = await connection.channel(confirm=False)
            try:
                await asyncio.wait_for(channel.exchange_declare(f"absent-{uuid.uuid4().hex}", passive=True), 5)
                refused = None
            except AmqpClosed as exc:
                refused = exc
            again = await connection.channel()
            await asyncio.wait_for(again.exchange_declare(exchange, passive=True), 5)
            return refused, channel.is_closed, connection.is_closed, again.is_closed
        finally:
            await connection.close()

    refused, channel_closed, connection_closed, again_closed = asyncio.run(run())
    assert isinstance(refused, AmqpClosed) and refused.code == 404 and refused.scope == "channel", refused
    assert channel_closed and not connection_closed and not again_closed


def test_declare_creates_an_exchange_that_a_passive_declare_then_finds(rabbit):
    """A declare without passive creates the exchange (durable, direct); before it a passive declare is refused
    with 404, after it the passive declare succeeds."""
    exchange = unique("hubx-declared")

    async def run() -> tuple[int, bool]:
        connection = await _login(rabbit.url)
        try:
            looking = await connection.channel(confirm=False)
            with pytest.raises(AmqpClosed) as before:
                await asyncio.wait_for(looking.exchange_declare(exchange, passive=True), 5)
            channel = await connection.channel(confirm=False)
            await asyncio.wait_for(channel.exchange_declare(exchange, passive=False), 5)
            rabbit.exchanges.append(exchange)
            await asyncio.wait_for((await connection.channel()).exchange_declare(exchange, passive=True), 5)
            return before.value.code, channel.is_closed
        finally:
            await connection.close()

    assert asyncio.run(run()) == (404, False)


def test_a_declare_on_a_closed_channel_raises_its_close(rabbit):
    """A channel the broker closed refuses a further declare with the close it ended with (nothing is sent)."""

    async def run() -> tuple[AmqpClosed, BaseException]:
        connection = await _login(rabbit.url)
        try:
            channel = await connection.channel(confirm=False)
            with pytest.raises(AmqpClosed) as first:
                await asyncio.wait_for(channel.exchange_declare(f"absent-{uuid.uuid4().hex}", passive=True), 5)
            with pytest.raises(AmqpClosed) as second:
                await channel.exchange_declare("anything", passive=True)
            return first.value, second.value
        finally:
            await connection.close()

    first, second = asyncio.run(run())
    assert second is first


def test_a_login_the_broker_drops_is_access_refused(rabbit, monkeypatch):
    """A broker that cannot report a refused login closes the socket during the handshake (RabbitMQ does so for a
    client without the authentication_failure_close capability): that is ACCESS_REFUSED (403) on the connection,
    which the sink and the probe class auth_failed (R-putSubscriptionCredential-03)."""
    from hub.amqp import client as amqp
    from hub.providers.rabbitmq.sink import classify_publish_error

    capabilities = {k: v for k, v in amqp.CLIENT_PROPERTIES["capabilities"].items()
                    if k != "authentication_failure_close"}
    monkeypatch.setattr(amqp, "CLIENT_PROPERTIES", {**amqp.CLIENT_PROPERTIES, "capabilities": capabilities})
    target = broker_target(rabbit.url)
    with pytest.raises(AmqpClosed) as refused:
        asyncio.run(connect(address=target.address, port=target.port, username=target.username,
                            password="wrong", vhost=target.vhost, timeout=5))
    assert refused.value.code == 403 and refused.value.scope == "connection"
    assert "closed during login" in refused.value.text
    result = classify_publish_error(refused.value, "connect")
    assert (result.error_class, result.detail) == ("auth_failed", "connect: the broker refused the credentials")

"""The RabbitMQ sink: publisher confirms, ``mandatory``, persistent messages, one connection per credential.

The endpoint is ``"<exchange>/<routing key>"`` (the routing key may be empty or left out). The body
is the structured CloudEvent (``content-type: application/cloudevents+json``); following the
CloudEvents AMQP binding, every attribute is also an application property (AMQP 0-9-1 headers)
named ``cloudEvents_<attribute>`` (the ``_`` separator the binding prefers). ``message_id`` is the
delivery id, stable across retries, so a consumer can drop the duplicates a retry may cause.

The broker URI comes from the credential (``{"uri": "amqp[s]://user:pass@host:port/vhost"}``); its
host passes the SSRF guard and the connection goes to the address the guard checked. The sink
publishes through the hub's own pamqp client (:mod:`hub.amqp.client`): publishes on one channel are
pipelined, each waiting only for its own confirm. There is one connection per credential and one
channel per exchange on it, because the broker closes a channel that publishes to a missing exchange
(and fails everything in flight on it). A connection or channel the broker closed is replaced on the
next delivery, so a restarted broker is picked up again. The credential probe
(``hub.providers.rabbitmq.provider``) connects the same way (``connect_rabbitmq``), passive-declares the
exchange with the same client and classifies its failures with ``classify_publish_error``.
"""

from __future__ import annotations

import asyncio
import ssl
import time
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, ClassVar
from urllib.parse import unquote, urlsplit

from hub.config import Settings
from hub.amqp import client as amqp
from hub.amqp.client import RETURNED, AmqpClosed, AmqpConnection, Channel, PropertiesEncoder
from hub.egress import check_host
from hub.errors import HubError
from hub.sinks.base import AttemptResult, PreparedDelivery, elapsed_ms
from hub.sinks.vocabulary import ErrorClass, SinkKind

PROPERTY_PREFIX = "cloudEvents_"
CONTENT_TYPE = "application/cloudevents+json; charset=utf-8"
PERSISTENT = 2
APP_ID = "streaming-hub"
TEMPLATE_CACHE = 4096  # events whose encoded properties are kept
CONNECTION_FORCED, ACCESS_REFUSED, NOT_FOUND, PRECONDITION_FAILED, NOT_ALLOWED = 320, 403, 404, 406, 530
DEFAULT_PORTS = {"amqp": 5672, "amqps": 5671}


class RabbitStepFailed(Exception):
    def __init__(self, result: AttemptResult) -> None:
        super().__init__(result.detail)
        self.result = result


@dataclass(frozen=True)
class BrokerTarget:
    """Where to connect: the checked address, the name for TLS, and the login."""

    scheme: str
    host: str
    address: str
    port: int
    vhost: str
    username: str
    password: str


def split_endpoint(endpoint: str) -> tuple[str, str]:
    """``"<exchange>/<routing key>"`` as (exchange, routing key)."""
    exchange, _, routing_key = endpoint.partition("/")
    return exchange, routing_key


def broker_target(uri: str, *, guarded: bool = True) -> BrokerTarget:
    """Parse an amqp:// or amqps:// URI. A tenant's credential is GUARDED: its host passes the SSRF guard
    (raising the egress domain errors) and the connection goes to the address the guard checked; the hub's
    own broker (``rabbitmq_url``, the operator's setting) is not a tenant's address and is not guarded."""
    parts = urlsplit(uri)
    scheme = parts.scheme.lower()
    if scheme not in DEFAULT_PORTS or not parts.hostname:
        raise RabbitStepFailed(AttemptResult.failure(ErrorClass.no_credential,
                                                     "the credential uri is not amqp:// or amqps://"))
    port = parts.port or DEFAULT_PORTS[scheme]
    if guarded:
        destination = check_host(parts.hostname, port)
        host, address, port = destination.host, str(destination.addresses[0]), destination.port
    else:
        host = address = parts.hostname
    vhost = unquote(parts.path[1:]) if parts.path not in ("", "/") else "/"
    return BrokerTarget(scheme=scheme, host=host, address=address, port=port, vhost=vhost,
                        username=unquote(parts.username or "guest"), password=unquote(parts.password or "guest"))


async def connect_rabbitmq(target: BrokerTarget, timeout: float) -> AmqpConnection:
    """Connect to the address the SSRF guard checked (TLS verified against the URI's host) and log in."""
    return await amqp.connect(
        address=target.address, port=target.port, username=target.username, password=target.password,
        vhost=target.vhost, timeout=timeout, ssl=ssl.create_default_context() if target.scheme == "amqps" else None,
        server_hostname=target.host)


class RabbitMQSink:
    """Publishes deliveries to RabbitMQ exchanges; one connection per credential, one channel per exchange."""

    kind: ClassVar[SinkKind] = SinkKind.rabbitmq
    # Publishes pipelined on the channel, each waiting for its own confirm: a sender keeps this many in flight.
    batch_size: ClassVar[int] = 50

    def __init__(self, *, settings: Settings) -> None:
        self._settings = settings
        self._connections: dict[str, AmqpConnection] = {}
        self._channels: dict[tuple[str, str], Channel] = {}  # (broker uri, exchange) -> its channel
        self._locks: dict[str, asyncio.Lock] = {}
        self._properties = PropertiesEncoder()
        self._templates: dict[int, tuple[Mapping[str, Any], tuple[bytes, bytes]]] = {}

    async def _connection(self, uri: str) -> AmqpConnection:
        """The credential's open connection, (re)connected under the credential's lock when needed."""
        async with self._locks.setdefault(uri, asyncio.Lock()):
            connection = self._connections.get(uri)
            if connection is not None and not connection.is_closed:
                return connection
            self._channels = {k: v for k, v in self._channels.items() if k[0] != uri}
            connection = await connect_rabbitmq(broker_target(uri), self._settings.rabbitmq_connect_timeout_seconds)
            self._connections[uri] = connection
            return connection

    async def _channel(self, uri: str, exchange: str) -> Channel:
        """A confirming channel per (credential, exchange): a missing exchange closes only its own channel."""
        connection = await self._connection(uri)
        async with self._locks.setdefault(f"{uri}\n{exchange}", asyncio.Lock()):
            channel = self._channels.get((uri, exchange))
            if channel is None or channel.is_closed:
                channel = await asyncio.wait_for(connection.channel(), self._settings.rabbitmq_connect_timeout_seconds)
                self._channels[(uri, exchange)] = channel
            return channel

    def _refused(self, delivery: PreparedDelivery) -> AttemptResult | None:
        """Why the delivery is not sent at all, or None."""
        if not delivery.credential:
            return AttemptResult.failure(ErrorClass.no_credential, "no broker credential is stored")
        if len(delivery.body) > self._settings.rabbitmq_max_message_bytes:
            return AttemptResult.failure(
                ErrorClass.payload_too_large,
                f"the message is {len(delivery.body)} bytes; the limit is {self._settings.rabbitmq_max_message_bytes}",
                terminal=True)
        return None

    async def deliver(self, delivery: PreparedDelivery) -> AttemptResult:
        started = time.perf_counter()
        refused = self._refused(delivery)
        if refused is not None:
            return refused
        exchange = split_endpoint(delivery.endpoint)[0]
        uri = str(delivery.credential.get("uri") or "")  # type: ignore[union-attr] (checked by _refused)
        channel = self._channels.get((uri, exchange))
        if channel is None or channel.is_closed:
            try:
                channel = await self._channel(uri, exchange)
            except RabbitStepFailed as failed:
                return failed.result
            except HubError as refused_host:  # the SSRF guard refused the broker host
                return AttemptResult.failure(ErrorClass.endpoint_blocked if refused_host.code == "endpoint_blocked"
                                             else ErrorClass.dns, refused_host.detail)
            except Exception as exc:  # noqa: BLE001 (a sink never raises)
                return classify_publish_error(exc, "connect").timed(started)
        try:
            outcome = await self._publish(channel, delivery)
        except Exception as exc:  # noqa: BLE001
            return classify_publish_error(exc, "basic.publish").timed(started)
        return _outcome(outcome, started)

    def _publish(self, channel: Channel, delivery: PreparedDelivery) -> asyncio.Future:
        exchange, routing_key = split_endpoint(delivery.endpoint)
        before, after = self._template(delivery.attributes)
        return channel.publish(exchange=exchange, routing_key=routing_key,
                               properties=before + amqp.shortstr(delivery.delivery_id) + after,
                               message_id=delivery.delivery_id, body=delivery.body, timeout=delivery.timeout_seconds)

    def _template(self, attributes: Mapping[str, Any]) -> tuple[bytes, bytes]:
        """The properties around the message id, encoded once per event (an event fans out to many
        subscriptions with the same attributes object); keyed by identity, holding the object."""
        cached = self._templates.get(id(attributes))
        if cached is not None and cached[0] is attributes:
            return cached[1]
        message_type = attributes.get("type")
        template = self._properties.template(
            content_type=CONTENT_TYPE, delivery_mode=PERSISTENT, app_id=APP_ID,
            headers={f"{PROPERTY_PREFIX}{name}": str(value) for name, value in attributes.items()
                     if value is not None and name != "data"},
            message_type=str(message_type) if message_type else None)
        if len(self._templates) >= TEMPLATE_CACHE:
            self._templates.clear()
        self._templates[id(attributes)] = (attributes, template)
        return template

    async def deliver_many(self, deliveries: Sequence[PreparedDelivery]) -> list[AttemptResult]:
        """Pipelined: every publish is in flight at once, each waiting for its own confirm."""
        return list(await asyncio.gather(*(self.deliver(delivery) for delivery in deliveries)))

    async def close(self) -> None:
        connections, self._connections, self._channels = list(self._connections.values()), {}, {}
        for connection in connections:
            await connection.close()


def classify_publish_error(exc: BaseException, step: str) -> AttemptResult:
    """An exception of the hub's AMQP client (hub.amqp.client) or the socket as an attempt result (sink and probe)."""
    if isinstance(exc, AmqpClosed):
        return _classify_close(exc, step)
    if isinstance(exc, (asyncio.TimeoutError, TimeoutError)):
        return AttemptResult.failure(ErrorClass.timeout, f"{step}: no answer in time")
    if isinstance(exc, (ssl.SSLError, ssl.CertificateError)):
        return AttemptResult.failure(ErrorClass.tls, f"{step}: the TLS handshake or certificate verification failed")
    if isinstance(exc, ConnectionRefusedError):
        return AttemptResult.failure(ErrorClass.connect_refused, f"{step}: connection refused")
    if isinstance(exc, ConnectionError):
        return AttemptResult.failure(ErrorClass.connection_reset, f"{step}: the connection was lost")
    if isinstance(exc, OSError):
        return AttemptResult.failure(ErrorClass.connect_refused, f"{step}: {type(exc).__name__}")
    return AttemptResult.failure(ErrorClass.internal, f"{step}: {type(exc).__name__}")


def _classify_close(exc: AmqpClosed, step: str) -> AttemptResult:
    """The broker's reply code when it closed the channel or the connection."""
    if exc.code == NOT_FOUND:
        return AttemptResult.failure(ErrorClass.destination_missing, f"{step}: the exchange does not exist")
    if exc.code == ACCESS_REFUSED:
        return AttemptResult.failure(ErrorClass.auth_failed, f"{step}: the broker refused the credentials")
    if exc.code == NOT_ALLOWED:
        return AttemptResult.failure(ErrorClass.auth_failed, f"{step}: the vhost is not open to these credentials")
    if exc.code == PRECONDITION_FAILED and "size" in exc.text.lower():
        return AttemptResult.failure(ErrorClass.payload_too_large, f"{step}: over the broker's message size",
                                     terminal=True)
    if exc.code == CONNECTION_FORCED:
        return AttemptResult.failure(ErrorClass.connection_reset, f"{step}: the broker closed the connection")
    return AttemptResult.failure(ErrorClass.destination_error, f"{step}: the broker closed the {exc.scope} "
                                                              f"({exc.code})")


def _outcome(outcome: object, started: float) -> AttemptResult:
    if outcome is RETURNED:
        return AttemptResult.failure(ErrorClass.unroutable,
                                     "basic.publish: no queue is bound for the routing key").timed(started)
    if outcome is not True:
        return AttemptResult.failure(ErrorClass.destination_error, "basic.publish: the broker nacked").timed(started)
    return AttemptResult.success(latency_ms=elapsed_ms(started))



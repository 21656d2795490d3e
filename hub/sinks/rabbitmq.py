"""The RabbitMQ sink: publisher confirms, ``mandatory``, persistent messages, one connection per credential.

The endpoint is ``"<exchange>/<routing key>"`` (the routing key may be empty or left out). The body
is the structured CloudEvent (``content-type: application/cloudevents+json``); following the
CloudEvents AMQP binding, every attribute is also an application property (AMQP 0-9-1 headers)
named ``cloudEvents_<attribute>`` (the ``_`` separator the binding prefers). ``message_id`` is the
delivery id, stable across retries, so a consumer can drop the duplicates a retry may cause.

The broker URI comes from the credential (``{"uri": "amqp[s]://user:pass@host:port/vhost"}``); its
host passes the SSRF guard and the connection goes to the address the guard checked. Publishes on
one channel are pipelined (each waits only for its own confirm). There is one connection per credential
and one channel per exchange on it, because the broker closes a channel that publishes to a missing
exchange (and fails everything in flight on it). A connection or channel the broker closed is
replaced on the next delivery, so a restarted broker is picked up again.
"""

from __future__ import annotations

import asyncio
import errno
import hashlib
import time
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, ClassVar
from urllib.parse import unquote, urlsplit

import aiormq
import aiormq.exceptions as amqp_errors
from pamqp.commands import Basic

from hub.config import Settings
from hub.egress import check_host
from hub.errors import HubError
from hub.sinks.base import AttemptResult, PreparedDelivery
from hub.sinks.vocabulary import ErrorClass, SinkKind

PROPERTY_PREFIX = "cloudEvents_"
CONTENT_TYPE = "application/cloudevents+json; charset=utf-8"
PERSISTENT = 2
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


def broker_target(uri: str) -> BrokerTarget:
    """Parse the credential's URI and SSRF-check its host (raises the egress domain errors)."""
    parts = urlsplit(uri)
    scheme = parts.scheme.lower()
    if scheme not in DEFAULT_PORTS or not parts.hostname:
        raise RabbitStepFailed(AttemptResult.failure(ErrorClass.no_credential,
                                                     "the credential uri is not amqp:// or amqps://"))
    destination = check_host(parts.hostname, parts.port or DEFAULT_PORTS[scheme])
    vhost = unquote(parts.path[1:]) if parts.path not in ("", "/") else "/"
    return BrokerTarget(scheme=scheme, host=destination.host, address=str(destination.addresses[0]),
                        port=destination.port, vhost=vhost, username=unquote(parts.username or "guest"),
                        password=unquote(parts.password or "guest"))


def properties_for(delivery: PreparedDelivery) -> Basic.Properties:
    headers = {f"{PROPERTY_PREFIX}{name}": str(value) for name, value in delivery.attributes.items()
               if value is not None and name != "data"}
    return Basic.Properties(content_type=CONTENT_TYPE, delivery_mode=PERSISTENT, message_id=delivery.delivery_id,
                            headers=headers, message_type=str(delivery.attributes.get("type") or "") or None,
                            app_id="streaming-hub")


def classify_amqp_error(exc: BaseException, step: str) -> AttemptResult:
    """An aiormq/OS exception as an attempt result."""
    if isinstance(exc, amqp_errors.PublishError):
        return AttemptResult.failure(ErrorClass.unroutable, f"{step}: no queue is bound for the routing key")
    if isinstance(exc, amqp_errors.ChannelNotFoundEntity):
        return AttemptResult.failure(ErrorClass.destination_missing, f"{step}: the exchange does not exist")
    if isinstance(exc, (amqp_errors.ChannelAccessRefused, amqp_errors.ProbableAuthenticationError,
                        amqp_errors.AuthenticationError)):
        return AttemptResult.failure(ErrorClass.auth_failed, f"{step}: the broker refused the credentials")
    if isinstance(exc, amqp_errors.ConnectionNotAllowed):
        return AttemptResult.failure(ErrorClass.auth_failed, f"{step}: the vhost is not open to these credentials")
    if isinstance(exc, amqp_errors.ChannelPreconditionFailed) and "size" in str(exc).lower():
        return AttemptResult.failure(ErrorClass.payload_too_large, f"{step}: over the broker's message size",
                                     terminal=True)
    if isinstance(exc, (asyncio.TimeoutError, TimeoutError)):
        return AttemptResult.failure(ErrorClass.timeout, f"{step}: no answer in time")
    if isinstance(exc, ConnectionRefusedError) or (
            isinstance(exc, amqp_errors.AMQPConnectionError) and exc.args[:1] == (errno.ECONNREFUSED,)):
        return AttemptResult.failure(ErrorClass.connect_refused, f"{step}: connection refused")
    if isinstance(exc, (ConnectionError, amqp_errors.AMQPConnectionError, amqp_errors.ChannelInvalidStateError)):
        return AttemptResult.failure(ErrorClass.connection_reset, f"{step}: the connection was lost")
    if isinstance(exc, amqp_errors.AMQPError):
        return AttemptResult.failure(ErrorClass.destination_error, f"{step}: {type(exc).__name__}")
    if isinstance(exc, OSError):
        return AttemptResult.failure(ErrorClass.connect_refused, f"{step}: {type(exc).__name__}")
    return AttemptResult.failure(ErrorClass.internal, f"{step}: {type(exc).__name__}")


async def open_connection(target: BrokerTarget, timeout: float) -> aiormq.Connection:
    """Connect to the checked address and log in."""
    url = f"{target.scheme}://{target.address}:{target.port}/"
    connection = aiormq.Connection(url, **({"server_hostname": target.host} if target.scheme == "amqps" else {}))
    # The login and vhost are set on the URL object so no secret is formatted into a string.
    connection.url = connection.url.with_user(target.username).with_password(target.password)
    connection.vhost = target.vhost
    try:
        await asyncio.wait_for(connection.connect(), timeout)
    except BaseException:
        await _quietly_close(connection)
        raise
    return connection


async def open_channel(target: BrokerTarget, timeout: float) -> tuple[aiormq.Connection, Any]:
    """Connect, log in, and open a confirming channel."""
    connection = await open_connection(target, timeout)
    try:
        channel = await asyncio.wait_for(connection.channel(publisher_confirms=True, on_return_raises=True), timeout)
    except BaseException:
        await _quietly_close(connection)
        raise
    return connection, channel


async def _quietly_close(connection: aiormq.Connection) -> None:
    try:
        await asyncio.wait_for(connection.close(), 2.0)
    except BaseException:  # noqa: BLE001 (closing a dead connection may fail in many ways)
        pass


def credential_key(credential: Mapping[str, Any]) -> str:
    return hashlib.sha256(str(credential.get("uri") or "").encode()).hexdigest()


class RabbitMQSink:
    """Publishes deliveries to RabbitMQ exchanges; one connection per credential, one channel per exchange."""

    kind: ClassVar[SinkKind] = SinkKind.rabbitmq

    def __init__(self, *, settings: Settings) -> None:
        self._settings = settings
        self._connections: dict[str, aiormq.Connection] = {}
        self._channels: dict[tuple[str, str], Any] = {}
        self._locks: dict[str, asyncio.Lock] = {}

    async def _connection(self, key: str, credential: Mapping[str, Any]) -> aiormq.Connection:
        """The credential's open connection, (re)connected under the credential's lock when needed."""
        connection = self._connections.get(key)
        if connection is not None and not connection.is_closed:
            return connection
        async with self._locks.setdefault(key, asyncio.Lock()):
            connection = self._connections.get(key)
            if connection is not None and not connection.is_closed:
                return connection
            if connection is not None:
                await _quietly_close(connection)
            self._channels = {k: v for k, v in self._channels.items() if k[0] != key}
            target = broker_target(str(credential.get("uri") or ""))
            connection = await open_connection(target, self._settings.rabbitmq_connect_timeout_seconds)
            self._connections[key] = connection
            return connection

    async def _channel(self, credential: Mapping[str, Any], exchange: str) -> Any:
        """A confirming channel per (credential, exchange): a missing exchange closes only its own channel."""
        key = credential_key(credential)
        channel = self._channels.get((key, exchange))
        connection = self._connections.get(key)
        if channel is not None and not channel.is_closed and connection is not None and not connection.is_closed:
            return channel
        connection = await self._connection(key, credential)
        async with self._locks.setdefault(f"{key}/{exchange}", asyncio.Lock()):
            channel = self._channels.get((key, exchange))
            if channel is None or channel.is_closed:
                channel = await asyncio.wait_for(
                    connection.channel(publisher_confirms=True, on_return_raises=True),
                    self._settings.rabbitmq_connect_timeout_seconds)
                self._channels[(key, exchange)] = channel
            return channel

    async def deliver(self, delivery: PreparedDelivery) -> AttemptResult:
        started = time.perf_counter()
        if not delivery.credential:
            return AttemptResult.failure(ErrorClass.no_credential, "no broker credential is stored")
        if len(delivery.body) > self._settings.rabbitmq_max_message_bytes:
            return AttemptResult.failure(
                ErrorClass.payload_too_large,
                f"the message is {len(delivery.body)} bytes; the limit is {self._settings.rabbitmq_max_message_bytes}",
                terminal=True)
        try:
            channel = await self._channel(delivery.credential, split_endpoint(delivery.endpoint)[0])
        except RabbitStepFailed as failed:
            return failed.result
        except HubError as refused:  # the SSRF guard refused the broker host
            return AttemptResult.failure(ErrorClass.endpoint_blocked if refused.code == "endpoint_blocked"
                                         else ErrorClass.dns, refused.detail)
        except BaseException as exc:  # noqa: BLE001 (a sink never raises)
            return _timed(classify_amqp_error(exc, "connect"), started)
        return await self._publish(channel, delivery, started)

    async def _publish(self, channel: Any, delivery: PreparedDelivery, started: float) -> AttemptResult:
        exchange, routing_key = split_endpoint(delivery.endpoint)
        try:
            # wait=False: no wait for the socket to drain; the confirm below is what counts, and the
            # caller's batch bounds how many publishes are in flight.
            confirmation = await channel.basic_publish(
                delivery.body, exchange=exchange, routing_key=routing_key, properties=properties_for(delivery),
                mandatory=True, timeout=delivery.timeout_seconds, wait=False)
        except BaseException as exc:  # noqa: BLE001
            if isinstance(exc, asyncio.CancelledError):
                raise
            return _timed(classify_amqp_error(exc, "basic.publish"), started)
        if isinstance(confirmation, Basic.Nack):
            return _timed(AttemptResult.failure(ErrorClass.destination_error, "basic.publish: the broker nacked"),
                          started)
        return AttemptResult.success(latency_ms=_elapsed(started))

    async def deliver_many(self, deliveries: Sequence[PreparedDelivery]) -> list[AttemptResult]:
        """Pipelined: every publish is in flight at once, each waiting for its own confirm."""
        return list(await asyncio.gather(*(self.deliver(delivery) for delivery in deliveries)))

    async def close(self) -> None:
        connections, self._connections, self._channels = list(self._connections.values()), {}, {}
        for connection in connections:
            await _quietly_close(connection)


def _elapsed(started: float) -> int:
    return int((time.perf_counter() - started) * 1000)


def _timed(result: AttemptResult, started: float) -> AttemptResult:
    return AttemptResult(ok=result.ok, error_class=result.error_class, detail=result.detail,
                         latency_ms=_elapsed(started), terminal=result.terminal)

"""The RabbitMQ provider: ``"<exchange>/<routing key>"``; the broker URI is the credential; probe-on-write.

The credential is ``{"uri": "amqp[s]://user:pass@host[:port]/vhost"}``; its host passes the SSRF guard.
The probe connects and logs in with it, then passive-declares the endpoint's exchange, with the
sink's own AMQP client. RabbitMQ has no verify probe (R-verifySubscription-08): the credential PUT
is its probe.
"""

from __future__ import annotations

import asyncio
import re
import time
from collections.abc import Mapping
from typing import Any, ClassVar
from urllib.parse import urlsplit

from hub.config import Settings
from hub.egress import EndpointBlocked, InvalidDestination
from hub.errors import invalid
from hub.providers.base import EndpointShapeError, ProbeTarget, Provider, text_field
from hub.sinks.base import AttemptResult, elapsed_ms
from hub.sinks.vocabulary import ErrorClass, SinkKind
from hub.providers.rabbitmq.sink import RabbitMQSink

_EXCHANGE = re.compile(r"^[A-Za-z0-9._:-]{1,255}$")


class RabbitMQProvider(Provider):
    kind: ClassVar[SinkKind] = SinkKind.rabbitmq
    label: ClassVar[str] = "RabbitMQ"
    endpoint_label: ClassVar[str] = "Exchange and routing key"
    endpoint_example: ClassVar[str] = "orders/orders.created"
    sink = RabbitMQSink
    keeps_whitespace = names_destination_only = takes_credential = True

    def check_shape(self, endpoint: str) -> None:
        exchange, _, routing_key = endpoint.partition("/")
        if not _EXCHANGE.match(exchange):
            raise EndpointShapeError('a rabbitmq endpoint is "<exchange>/<routing key>" with a named exchange')
        if len(routing_key.encode("utf-8")) > 255:
            raise EndpointShapeError("the routing key is longer than 255 bytes")

    def parse_credential(self, config: dict[str, Any]) -> dict[str, Any]:
        uri = text_field(config, "uri", "sinkConfig/uri")
        parts = urlsplit(uri)
        if parts.scheme.lower() not in ("amqp", "amqps") or not parts.hostname or not parts.username:
            raise invalid("sinkConfig/uri", "uri must be amqp:// or amqps:// with a user, password and host")
        try:
            parts.port  # noqa: B018 (a malformed port raises here)
        except ValueError:
            raise invalid("sinkConfig/uri", "the uri port is not valid") from None
        return {"uri": uri}

    def refuse_blocked(self, endpoint: str, credential: Mapping[str, Any]) -> None:
        from hub.providers.rabbitmq.sink import broker_target

        try:
            broker_target(str(credential["uri"]))
        except InvalidDestination as exc:
            raise invalid("sinkConfig/uri", exc.detail) from exc

    def probe(self, target: ProbeTarget, settings: Settings) -> AttemptResult:
        """Connect and log in with the credential, then passive-declare the endpoint's exchange.

        ``broker_target`` checks the broker host again and the connection goes to the address that
        check returned.
        """
        return asyncio.run(_probe(target.endpoint, target.access.credential or {}, settings))


async def _probe(endpoint: str, credential: Mapping[str, Any], settings: Settings) -> AttemptResult:
    from hub.providers.rabbitmq.sink import RabbitStepFailed, broker_target, classify_publish_error, connect_rabbitmq

    started = time.perf_counter()
    try:
        target = broker_target(str(credential.get("uri") or ""))
    except RabbitStepFailed as failed:
        return failed.result.timed(started)
    except EndpointBlocked as blocked:  # the name now resolves to a refused address
        return AttemptResult.failure(ErrorClass.endpoint_blocked, blocked.detail, latency_ms=elapsed_ms(started))
    timeout = settings.rabbitmq_connect_timeout_seconds
    step, connection = "connect", None
    try:
        connection = await connect_rabbitmq(target, timeout)
        channel = await asyncio.wait_for(connection.channel(confirm=False), timeout)
        step = "exchange.declare (passive)"
        await asyncio.wait_for(channel.exchange_declare(endpoint.partition("/")[0], passive=True), timeout)
    except Exception as exc:  # noqa: BLE001 (classified)
        return classify_publish_error(exc, step).timed(started)
    finally:
        if connection is not None:
            await connection.close()
    return AttemptResult.success(latency_ms=elapsed_ms(started))


PROVIDER = RabbitMQProvider()

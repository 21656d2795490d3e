"""Destination probes: does this credential (or grant) reach this queue, exchange or bus right now?

RabbitMQ: connect, log in, passive-declare the exchange. SQS: ``GetQueueAttributes``. EventBridge:
``DescribeEventBus``. A grant is first exchanged for session keys with STS ``AssumeRole`` and its
ExternalId. Every probe returns an ``AttemptResult`` (never raises for the destination's answer);
its detail names the failed step and, for AWS, the AWS error code.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable, Mapping
from typing import Any

from hub.config import Settings
from hub.egress import EndpointBlocked
from hub.sinks.aws import AwsClients, AwsStepFailed, classify_client_error
from hub.sinks.base import AttemptResult, elapsed_ms
from hub.sinks.rabbitmq import RabbitStepFailed, broker_target, classify_publish_error, connect_broker, split_endpoint
from hub.sinks.vocabulary import ErrorClass, SinkKind

Probe = Callable[..., AttemptResult]


def probe_rabbitmq(*, endpoint: str, credential: Mapping[str, Any], settings: Settings) -> AttemptResult:
    """Connect and log in with the candidate URI, then passive-declare the endpoint's exchange.

    The broker host was SSRF-checked by the caller; ``broker_target`` checks it again and the
    connection goes to the address that check returned. A failed DNS lookup raises the egress
    domain error (DnsUnavailable, DnsTimeout) for the caller to classify.
    """
    return asyncio.run(_probe_rabbitmq(endpoint, credential, settings))


async def _probe_rabbitmq(endpoint: str, credential: Mapping[str, Any], settings: Settings) -> AttemptResult:
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
        connection = await connect_broker(target, timeout)
        channel = await asyncio.wait_for(connection.channel(confirm=False), timeout)
        step = "exchange.declare (passive)"
        await asyncio.wait_for(channel.exchange_declare(split_endpoint(endpoint)[0], passive=True), timeout)
    except Exception as exc:  # noqa: BLE001 (classified)
        return classify_publish_error(exc, step).timed(started)
    finally:
        if connection is not None:
            await connection.close()
    return AttemptResult.success(latency_ms=elapsed_ms(started))


def probe_aws(kind: SinkKind, *, endpoint: str, credential: Mapping[str, Any] | None,
              grant: Mapping[str, Any] | None, settings: Settings, session_name: str) -> AttemptResult:
    """GetQueueAttributes (sqs) or DescribeEventBus (eventbridge) with the credential or the grant."""
    started = time.perf_counter()
    clients = AwsClients(settings=settings)
    service, step = ("sqs", "sqs:GetQueueAttributes") if kind is SinkKind.sqs else ("events", "events:DescribeEventBus")
    try:
        client = clients.client_for(service, credential=credential, grant=grant, session_name=session_name)
        if kind is SinkKind.sqs:
            client.get_queue_attributes(QueueUrl=endpoint, AttributeNames=["QueueArn"])
        else:
            client.describe_event_bus(Name=endpoint.partition("/")[0])
    except AwsStepFailed as failed:
        return failed.result
    except Exception as exc:  # noqa: BLE001 (classified)
        result = classify_client_error(exc, step)
        return AttemptResult.failure(ErrorClass(result.error_class), result.detail, latency_ms=elapsed_ms(started))
    finally:
        clients.close()
    return AttemptResult.success(latency_ms=elapsed_ms(started))

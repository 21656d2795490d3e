"""Real queue destinations for tests: SQS queues and EventBridge buses on moto, RabbitMQ exchanges.

Every name carries a uuid suffix (the moto server and the broker are shared with other runs).
"""

from __future__ import annotations

import json
import socket
import uuid
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any

import boto3
import pika
import pytest

from hub.config import get_settings
from hub.sinks.base import PreparedDelivery
from hub.sinks.vocabulary import SinkKind

ACCOUNT = "123456789012"  # moto's default account
QUEUE_HOST = "https://52.94.0.10"  # an IP literal: the SSRF check needs no DNS; moto routes by path
STATIC_AWS = {"region": "us-east-1", "accessKeyId": "AKIAIOSFODNN7EXAMPLE", "secretAccessKey": "wJalrXUtnFEMIK7MDENG"}


def unique(prefix: str) -> str:
    return f"{prefix}-{uuid.uuid4().hex[:10]}"


def aws(service: str) -> Any:
    settings = get_settings()
    return boto3.client(service, endpoint_url=settings.aws_endpoint_url, region_name=settings.aws_region,
                        aws_access_key_id="testing", aws_secret_access_key="testing")


def queue_endpoint(name: str) -> str:
    return f"{QUEUE_HOST}/{ACCOUNT}/{name}"


@dataclass
class AwsDestinations:
    """Queues and buses created by one test, removed afterwards."""

    queues: list[str] = field(default_factory=list)
    buses: list[str] = field(default_factory=list)

    def queue(self, *, fifo: bool = False, **attributes: str) -> str:
        name = unique("hubq") + (".fifo" if fifo else "")
        if fifo:
            attributes["FifoQueue"] = "true"
        aws("sqs").create_queue(QueueName=name, Attributes=attributes)
        self.queues.append(name)
        return queue_endpoint(name)

    def bus_with_tap(self) -> tuple[str, str]:
        """A bus whose every event is copied to a fresh queue (how the tests read a bus back)."""
        bus, tap = unique("hubbus"), self.queue()
        events = aws("events")
        events.create_event_bus(Name=bus)
        self.buses.append(bus)
        tap_arn = f"arn:aws:sqs:us-east-1:{ACCOUNT}:{tap.rsplit('/', 1)[1]}"
        events.put_rule(Name="tap", EventBusName=bus, EventPattern=json.dumps({"account": [ACCOUNT]}))
        events.put_targets(Rule="tap", EventBusName=bus, Targets=[{"Id": "tap", "Arn": tap_arn}])
        return bus, tap

    def remove(self) -> None:
        for name in self.queues:
            try:
                aws("sqs").delete_queue(QueueUrl=queue_endpoint(name))
            except Exception:  # noqa: BLE001 (already gone)
                pass
        for bus in self.buses:
            try:
                events = aws("events")
                events.remove_targets(Rule="tap", EventBusName=bus, Ids=["tap"])
                events.delete_rule(Name="tap", EventBusName=bus)
                events.delete_event_bus(Name=bus)
            except Exception:  # noqa: BLE001
                pass


def receive_all(queue_url: str, expected: int, *, rounds: int = 20) -> list[dict[str, Any]]:
    """Read (and delete) up to ``expected`` messages, in at most ``rounds`` receive calls."""
    sqs, got = aws("sqs"), []
    for _ in range(rounds):
        if len(got) >= expected:
            break
        answer = sqs.receive_message(QueueUrl=queue_url, MaxNumberOfMessages=10, WaitTimeSeconds=1,
                                     MessageAttributeNames=["All"], AttributeNames=["All"])
        for message in answer.get("Messages", []):
            got.append(message)
            sqs.delete_message(QueueUrl=queue_url, ReceiptHandle=message["ReceiptHandle"])
    return got


@dataclass
class Rabbit:
    """Exchanges and queues on the local broker, declared by one test and deleted afterwards."""

    url: str
    exchanges: list[str] = field(default_factory=list)
    queues: list[str] = field(default_factory=list)

    def _channel(self) -> tuple[pika.BlockingConnection, Any]:
        connection = pika.BlockingConnection(pika.URLParameters(self.url))
        return connection, connection.channel()

    def exchange_with_queue(self, routing_key: str = "orders.created") -> tuple[str, str]:
        """A durable direct exchange with one queue bound on ``routing_key``; returns (exchange, queue)."""
        exchange, queue = unique("hubx"), unique("hubxq")
        connection, channel = self._channel()
        try:
            channel.exchange_declare(exchange, "direct", durable=True)
            channel.queue_declare(queue, durable=True)
            channel.queue_bind(queue, exchange, routing_key)
        finally:
            connection.close()
        self.exchanges.append(exchange)
        self.queues.append(queue)
        return exchange, queue

    def drain(self, queue: str, limit: int = 10_000) -> list[tuple[Any, bytes]]:
        """Every message now in ``queue`` as (properties, body), removed from it."""
        connection, channel = self._channel()
        got = []
        try:
            while len(got) < limit:
                method, properties, body = channel.basic_get(queue, auto_ack=True)
                if method is None:
                    break
                got.append((properties, body))
        finally:
            connection.close()
        return got

    def remove(self) -> None:
        connection, channel = self._channel()
        try:
            for queue in self.queues:
                channel.queue_delete(queue)
            for exchange in self.exchanges:
                channel.exchange_delete(exchange)
        finally:
            connection.close()


def cloud_event(*, index: int = 0, partition_key: str | None = "order-7", data: Any = None) -> tuple[dict, bytes]:
    """A CloudEvent's attributes and its structured JSON body."""
    attributes = {
        "specversion": "1.0", "id": f"evt-{uuid.uuid4().hex[:12]}-{index}", "source": "ledger",
        "type": "orders.created", "time": "2026-12-03T12:00:00Z", "datacontenttype": "application/json",
        "dataschema": "https://schemas.example.com/orders/1", "tenantid": "t-tests", "schemaversion": "1.2.0",
    }
    if partition_key is not None:
        attributes["partitionkey"] = partition_key
    payload = data if data is not None else {"order": index, "total": "10.50", "note": "café ✓"}
    return attributes, json.dumps({**attributes, "data": payload}, ensure_ascii=False).encode()


def delivery(kind: SinkKind, endpoint: str, *, credential: dict | None = None, grant: dict | None = None,
             index: int = 0, data: Any = None, partition_key: str | None = "order-7") -> PreparedDelivery:
    attributes, body = cloud_event(index=index, data=data, partition_key=partition_key)
    return PreparedDelivery(
        delivery_id=str(uuid.uuid4()), job_id=uuid.uuid4(), tenant_id="t-tests", subscription_id=uuid.uuid4(),
        sink_kind=kind, endpoint=endpoint, body=body, attributes=attributes, credential=credential, grant=grant)


def free_port() -> int:
    """A loopback port nothing listens on (bound, then released)."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


@contextmanager
def authenticating_moto() -> Iterator[str]:
    """A moto server of the test's own with request authentication on: unknown keys are refused
    (the shared server accepts any key, and switching it would disturb other runs)."""
    from moto import settings as moto_settings
    from moto.core.authorization import ActionAuthenticatorMixin
    from moto.server import ThreadedMotoServer

    port = free_port()
    server = ThreadedMotoServer(ip_address="127.0.0.1", port=port, verbose=False)
    server.start()
    previous = moto_settings.INITIAL_NO_AUTH_ACTION_COUNT
    moto_settings.INITIAL_NO_AUTH_ACTION_COUNT = 0
    ActionAuthenticatorMixin.request_count = 0
    try:
        yield f"http://127.0.0.1:{port}"
    finally:
        moto_settings.INITIAL_NO_AUTH_ACTION_COUNT = previous
        server.stop()


@pytest.fixture
def aws_destinations() -> Iterator[AwsDestinations]:
    made = AwsDestinations()
    yield made
    made.remove()


@pytest.fixture
def rabbit() -> Iterator[Rabbit]:
    made = Rabbit(url=get_settings().rabbitmq_url)
    yield made
    made.remove()

"""The run's queue destinations: RabbitMQ on a private node (so restarting it disturbs nobody) and an
SQS queue on a private moto server; each read back at the end for the ledger."""

from __future__ import annotations

import json
import os
from collections import Counter
from collections.abc import Iterator
from contextlib import ExitStack, contextmanager
from dataclasses import dataclass
from pathlib import Path

import pika

from hub.config import get_settings
from tests.support.destinations import STATIC_AWS, AwsDestinations, aws, free_port
from tests.support.rabbit_node import RabbitNode, private_rabbit

ROUTING_KEY = "chaos"


@dataclass
class Queues:
    """The private RabbitMQ node with one exchange and its bound queue, and one SQS queue."""

    node: RabbitNode
    exchange: str
    queue: str
    sqs_endpoint: str

    def subscriptions(self) -> list[tuple[str, str, str, dict]]:
        """(name, kind, endpoint, credential) of the run's queue subscriptions."""
        return [("rabbitmq", "rabbitmq", f"{self.exchange}/{ROUTING_KEY}", {"uri": self.node.url}),
                ("sqs", "sqs", self.sqs_endpoint, dict(STATIC_AWS))]

    def restart_rabbitmq(self, down_seconds: float) -> None:
        """Every connection closed, the broker away DOWN_SECONDS, then back (its data kept)."""
        import time

        self.node.stop_app()
        time.sleep(down_seconds)
        self.node.start_app()

    def rabbit_received(self) -> Counter[str]:
        """Every message in the queue by ``message_id`` (the delivery id), consumed until 1 s of quiet."""
        got: Counter[str] = Counter()
        connection = pika.BlockingConnection(pika.URLParameters(self.node.url))
        try:
            channel = connection.channel()
            channel.basic_qos(prefetch_count=1000)
            for method, properties, _body in channel.consume(self.queue, auto_ack=True, inactivity_timeout=1):
                if method is None:
                    return got
                got[properties.message_id or ""] += 1
            return got
        finally:
            connection.close()

    def sqs_received(self) -> Counter[str]:
        """Every message in the SQS queue by its CloudEvent id (the body is the structured event). Read
        once each under a long visibility timeout instead of deleted: the queue goes with the run."""
        sqs, got, empty = aws("sqs"), Counter(), 0
        while empty < 2:
            answer = sqs.receive_message(QueueUrl=self.sqs_endpoint, MaxNumberOfMessages=10, WaitTimeSeconds=0,
                                         VisibilityTimeout=3600)
            messages = answer.get("Messages", [])
            empty = empty + 1 if not messages else 0
            got.update(json.loads(message["Body"])["id"] for message in messages)
        return got


def _declare(node: RabbitNode, tag: str) -> tuple[str, str]:
    exchange, queue = f"chaos-x-{tag}", f"chaos-q-{tag}"
    connection = pika.BlockingConnection(pika.URLParameters(node.url))
    try:
        channel = connection.channel()
        channel.exchange_declare(exchange, "direct", durable=True)
        channel.queue_declare(queue, durable=True)
        channel.queue_bind(queue, exchange, ROUTING_KEY)
    finally:
        connection.close()
    return exchange, queue


@contextmanager
def private_moto() -> Iterator[str]:
    """A moto server of the run's own (its queue grows by thousands: the shared one must stay quick)."""
    from moto.server import ThreadedMotoServer

    port = free_port()
    server = ThreadedMotoServer(ip_address="127.0.0.1", port=port, verbose=False)
    server.start()
    try:
        yield f"http://127.0.0.1:{port}"
    finally:
        server.stop()


@contextmanager
def queue_destinations(folder: Path, tag: str) -> Iterator[Queues]:
    """Start the private RabbitMQ node and moto server (HUB_AWS_ENDPOINT_URL is set to it for the run),
    declare the exchange and queue, make the SQS queue."""
    with ExitStack() as stack:
        os.environ["HUB_AWS_ENDPOINT_URL"] = stack.enter_context(private_moto())
        get_settings.cache_clear()
        node = stack.enter_context(private_rabbit(folder / "rabbitmq"))
        exchange, queue = _declare(node, tag)
        yield Queues(node, exchange, queue, AwsDestinations().queue())

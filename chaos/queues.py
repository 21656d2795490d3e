"""The run's queue destinations: RabbitMQ on a private node (so restarting it disturbs nobody), an SQS
queue and an EventBridge bus on a private moto server (chaos.aws); each read back for the ledger."""

from __future__ import annotations

import os
from collections import Counter
from collections.abc import Iterator
from contextlib import ExitStack, contextmanager
from dataclasses import dataclass
from pathlib import Path

import pika

from chaos.aws import QueueTap, eventbridge_key, moto_process, sqs_key
from chaos.fifotap import FifoTap
from chaos.ordering import FIFO_NAME, Receipts
from hub.config import get_settings
from devkit.destinations import STATIC_AWS, AwsDestinations
from devkit.rabbit_node import RabbitNode, private_rabbit

ROUTING_KEY = "chaos"


@dataclass
class Queues:
    """The private RabbitMQ node with one exchange and its bound queue, one SQS queue and one
    EventBridge bus, each AWS one with a tap reading its messages as they come."""

    node: RabbitNode
    exchange: str
    queue: str
    sqs_endpoint: str
    fifo_endpoint: str  # the ordered subscription's SQS FIFO queue (chaos.ordering)
    bus: str
    taps: dict[str, QueueTap]

    def subscriptions(self) -> list[tuple[str, str, str, dict]]:
        """(name, kind, endpoint, credential) of the run's queue subscriptions."""
        return [("rabbitmq", "rabbitmq", f"{self.exchange}/{ROUTING_KEY}", {"uri": self.node.url}),
                ("sqs", "sqs", self.sqs_endpoint, dict(STATIC_AWS)),
                (FIFO_NAME, "sqs", self.fifo_endpoint, dict(STATIC_AWS)),
                ("eventbridge", "eventbridge", self.bus, dict(STATIC_AWS))]

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

    @property
    def fifo_receipts(self) -> Receipts:
        receipts = self.taps[FIFO_NAME].receipts
        assert receipts is not None
        return receipts

    def aws_received(self, subscription: str) -> Counter[str]:
        """Every message the tap of SUBSCRIPTION (``sqs``, the FIFO one or ``eventbridge``) read, by CloudEvent id."""
        return self.taps[subscription].received()


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
def queue_destinations(folder: Path, tag: str) -> Iterator[Queues]:
    """Start the private RabbitMQ node and moto server (HUB_AWS_ENDPOINT_URL is set to it for the run),
    declare the exchange and queue, make the SQS queue and the bus, and start reading both taps."""
    with ExitStack() as stack:
        os.environ["HUB_AWS_ENDPOINT_URL"] = stack.enter_context(moto_process(folder))
        get_settings.cache_clear()
        node = stack.enter_context(private_rabbit(folder / "rabbitmq"))
        exchange, queue = _declare(node, tag)
        destinations = AwsDestinations()
        sqs_endpoint, fifo_endpoint = destinations.queue(), destinations.queue(fifo=True)
        bus, bus_tap = destinations.bus_with_tap()
        taps = {"sqs": QueueTap(sqs_endpoint, sqs_key), "eventbridge": QueueTap(bus_tap, eventbridge_key),
                FIFO_NAME: FifoTap(fifo_endpoint, sqs_key, Receipts())}
        for tap in taps.values():
            tap.start()
            stack.callback(tap.stopping.set)
        yield Queues(node, exchange, queue, sqs_endpoint, fifo_endpoint, bus, taps)

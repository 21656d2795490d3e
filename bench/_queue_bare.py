"""The queue destinations' ceilings, shared by ``bench/queues.py`` and ``bench/deliver.py --kinds``: bare
client loops doing the hub's sends. Not a bench of its own (``make bench`` skips it).

boto3 ``SendMessageBatch`` / ``PutEvents`` calls of 10 on ``threads`` threads, and for RabbitMQ a pika
``BlockingConnection`` publishing with confirms, ``mandatory`` and persistent delivery one message at a
time (pika's blocking channel cannot pipeline confirms). Each returns messages/s.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor

import pika

from hub.providers.eventbridge.sink import entry_for
from hub.providers.sqs.sink import message_attributes
from hub.sinks.vocabulary import SinkKind
from devkit.destinations import Rabbit, aws, delivery


def bare_aws_rate(kind: SinkKind, endpoint: str, messages: int, threads: int) -> float:
    """The same sends with a bare boto3 client: batches of 10 on ``threads`` threads."""
    items = [delivery(kind, endpoint, index=i) for i in range(messages)]
    if kind is SinkKind.sqs:
        client = aws("sqs")
        chunks = [[{"Id": str(n), "MessageBody": d.body.decode(), "MessageAttributes": message_attributes(d.attributes)}
                   for n, d in enumerate(items[i:i + 10])] for i in range(0, messages, 10)]
        send: Callable[[list], object] = lambda entries: client.send_message_batch(QueueUrl=endpoint, Entries=entries)
    else:
        client = aws("events")
        chunks = [[entry_for(d) for d in items[i:i + 10]] for i in range(0, messages, 10)]
        send = lambda entries: client.put_events(Entries=entries)  # noqa: E731
    with ThreadPoolExecutor(max_workers=threads) as pool:
        list(pool.map(send, chunks[:2]))
        start = time.perf_counter()
        list(pool.map(send, chunks))
        return messages / (time.perf_counter() - start)


def bare_pika_rate(url: str, exchange: str, messages: int, routing_key: str = "orders.created") -> float:
    """pika publishing with confirms, mandatory and persistent delivery, one message at a time."""
    items = [delivery(SinkKind.rabbitmq, f"{exchange}/{routing_key}", index=i) for i in range(messages)]
    connection = pika.BlockingConnection(pika.URLParameters(url))
    channel = connection.channel()
    channel.confirm_delivery()
    try:
        start = time.perf_counter()
        for item in items:
            headers = {f"cloudEvents_{name}": str(value) for name, value in item.attributes.items()}
            channel.basic_publish(exchange, routing_key, item.body, pika.BasicProperties(
                content_type="application/cloudevents+json", delivery_mode=2, message_id=item.delivery_id,
                headers=headers), mandatory=True)
        return messages / (time.perf_counter() - start)
    finally:
        connection.close()


def drain_rabbit(rabbit: Rabbit) -> None:
    """Empty the bench's queues."""
    for queue in rabbit.queues:
        connection = pika.BlockingConnection(pika.URLParameters(rabbit.url))
        connection.channel().queue_purge(queue)
        connection.close()


def queued(rabbit: Rabbit) -> int:
    """Messages now waiting in the bench's queues."""
    connection = pika.BlockingConnection(pika.URLParameters(rabbit.url))
    try:
        channel = connection.channel()
        return sum(channel.queue_declare(queue, passive=True).method.message_count for queue in rabbit.queues)
    finally:
        connection.close()

"""The ceiling of the consumer pipeline's queue hop: the same events through a bare pika publisher and consumer
(acks) on a quorum queue of the hub's RabbitMQ (bench/consume.py's baseline).

Not a bench of its own (``make bench`` skips ``bench/_*.py``).
"""

from __future__ import annotations

import threading
import time
import uuid

import orjson
import pika

from hub.config import get_settings


def bare_scenario(events: int, rate: float | None) -> tuple[float, list[float]]:
    """The same events through a bare pika publisher and consumer (acks) on a quorum queue."""
    params = pika.URLParameters(get_settings().rabbitmq_url)
    name = f"bench.bare.{uuid.uuid4().hex[:8]}"
    setup = pika.BlockingConnection(params)
    setup.channel().queue_declare(name, durable=True, arguments={"x-queue-type": "quorum"})
    latencies: list[float] = []

    def consumer() -> None:
        connection = pika.BlockingConnection(params)
        channel = connection.channel()
        channel.basic_qos(prefetch_count=500)
        for method, _, body in channel.consume(name):
            latencies.append((time.time() - orjson.loads(body)["sent"]) * 1000)
            channel.basic_ack(method.delivery_tag)
            if len(latencies) >= events:
                break
        connection.close()

    thread = threading.Thread(target=consumer)
    thread.start()
    time.sleep(0.3)
    channel = setup.channel()
    started = time.monotonic()
    for n in range(events):
        if rate:
            time.sleep(max(started + n / rate - time.monotonic(), 0))
        channel.basic_publish("", name, orjson.dumps({"n": n, "sent": time.time()}),
                              pika.BasicProperties(delivery_mode=2))
    thread.join()
    elapsed = time.monotonic() - started
    setup.channel().queue_delete(name)
    setup.close()
    return elapsed, latencies

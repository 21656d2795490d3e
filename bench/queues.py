"""Queue sink throughput: messages/s through ``deliver_many`` to SQS (moto), RabbitMQ and EventBridge (moto).

For each kind, in the same run and against the same destination, the destination's ceiling is a bare
client loop doing the same sends (``bench/_queue_bare.py``, shared with ``bench/deliver.py --kinds``): boto3 ``SendMessageBatch`` / ``PutEvents`` calls of 10 on
``--threads`` threads (the sinks' own pool size), and for RabbitMQ a pika ``BlockingConnection``
publishing with confirms and ``mandatory`` one message at a time (pika's blocking channel cannot
pipeline confirms). Every message is the same ~600-byte structured CloudEvent the tests send.
The sink is measured with 1 and with 10 destinations (subscriptions) per kind.

``--engine`` adds, for RabbitMQ, the real engine: a ``hub deliver`` process (``--engine-workers``)
claiming jobs from a scratch database of its own and publishing them, with 1 and 10 subscriptions
per event (``--engine-events`` events; see ``bench/_queue_engine.py``), beside the same bare pika loop.

Each figure is the median of ``--repeat`` runs (default 3) of ``--messages`` messages (default 2,000
for RabbitMQ, 300 for the AWS kinds: moto's SQS answers ~100 sends/s here); the ratio column is sink / bare. Wall-clock on a shared
machine: noisy, compare runs made back to back. Needs the local stack (``make stack``) and its env.

Run: ``python bench/queues.py`` (``--help``).
"""

from __future__ import annotations

import argparse
import asyncio
import os
import statistics
import sys
import time
import uuid
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

os.environ.setdefault("AWS_ACCESS_KEY_ID", "bench")
os.environ.setdefault("AWS_SECRET_ACCESS_KEY", "bench")
os.environ.setdefault("HUB_EGRESS_ALLOW_CIDRS", "127.0.0.0/8")  # the local broker is on loopback

from hub.config import get_settings  # noqa: E402
from hub.providers.eventbridge.sink import EventBridgeSink  # noqa: E402
from hub.providers.rabbitmq.sink import RabbitMQSink  # noqa: E402
from hub.providers.sqs.sink import SqsSink  # noqa: E402
from hub.sinks.vocabulary import SinkKind  # noqa: E402
from bench._queue_bare import bare_aws_rate, bare_pika_rate, drain_rabbit, queued  # noqa: E402
from bench._queue_engine import add_subscriptions, engine_database, engine_rate  # noqa: E402
from devkit.destinations import STATIC_AWS, AwsDestinations, Rabbit, aws, delivery  # noqa: E402


def sink_rate(kind: SinkKind, endpoints: list[str], credential: dict, messages: int) -> float:
    """Messages/s through the sink's deliver_many, in calls of 100 spread over the endpoints."""
    sink_class = {SinkKind.sqs: SqsSink, SinkKind.rabbitmq: RabbitMQSink, SinkKind.eventbridge: EventBridgeSink}[kind]
    batch = [delivery(kind, endpoints[i % len(endpoints)], credential=credential, index=i) for i in range(messages)]

    async def run() -> float:
        sink = sink_class(settings=get_settings())
        try:
            await sink.deliver_many(batch[:10])  # connect and warm up outside the timing
            start = time.perf_counter()
            for offset in range(0, messages, 100):
                results = await sink.deliver_many(batch[offset:offset + 100])
                assert all(result.ok for result in results), [r for r in results if not r.ok][:1]
            return messages / (time.perf_counter() - start)
        finally:
            await sink.close()

    return asyncio.run(run())


def median(runs: int, measure: Callable[[], float]) -> float:
    return statistics.median(measure() for _ in range(runs))


def bench_rabbitmq(args: argparse.Namespace) -> list[tuple[str, float, float]]:
    rabbit = Rabbit(url=get_settings().rabbitmq_url)
    try:
        exchanges = [rabbit.exchange_with_queue("orders.created")[0] for _ in range(10)]
        credential = {"uri": rabbit.url}
        rows = []
        for count in (1, 10):
            endpoints = [f"{exchange}/orders.created" for exchange in exchanges[:count]]

            def measure_sink(endpoints: list[str] = endpoints) -> float:
                rate = sink_rate(SinkKind.rabbitmq, endpoints, credential, args.rabbit_messages)
                drain_rabbit(rabbit)
                return rate

            rows.append((f"rabbitmq x{count}", median(args.repeat, measure_sink),
                         median(args.repeat, bare_rabbit(rabbit, exchanges[0], args.rabbit_messages))))
        return rows
    finally:
        rabbit.remove()


def bare_rabbit(rabbit: Rabbit, exchange: str, messages: int) -> Callable[[], float]:
    """One measurement of the bare pika loop (the ceiling), leaving the bench's queues empty."""

    def measure() -> float:
        rate = bare_pika_rate(rabbit.url, exchange, messages)
        drain_rabbit(rabbit)
        return rate

    return measure


def bench_rabbitmq_engine(args: argparse.Namespace) -> list[tuple[str, float, float]]:
    """``hub deliver`` to 1 and 10 RabbitMQ subscriptions per event, beside the bare pika loop."""
    rabbit = Rabbit(url=get_settings().rabbitmq_url)
    try:
        exchanges = [rabbit.exchange_with_queue("orders.created")[0] for _ in range(10)]
        rows = []
        with engine_database() as url:
            dsn = url.replace("postgresql+psycopg://", "postgresql://", 1)
            subscriptions = add_subscriptions(dsn, [f"{exchange}/orders.created" for exchange in exchanges],
                                              rabbit.url)
            for count in (1, 10):

                def measure_engine(count: int = count) -> float:
                    rate = engine_rate(url, subscriptions[:count], args.engine_events, args.engine_workers)
                    arrived, expected = queued(rabbit), (args.engine_events + 5) * count  # + the warm-up round
                    assert arrived == expected, f"{arrived} messages in the queues, {expected} jobs delivered"
                    drain_rabbit(rabbit)
                    return rate

                rows.append((f"engine rabbitmq x{count}", median(args.repeat, measure_engine),
                             median(args.repeat, bare_rabbit(rabbit, exchanges[0], args.rabbit_messages))))
        return rows
    finally:
        rabbit.remove()


def bench_aws(kind: SinkKind, args: argparse.Namespace) -> list[tuple[str, float, float]]:
    made = AwsDestinations()
    try:
        if kind is SinkKind.sqs:
            endpoints = [made.queue() for _ in range(10)]
        else:
            endpoints = []
            for _ in range(10):
                bus = f"bench-{uuid.uuid4().hex[:10]}"
                aws("events").create_event_bus(Name=bus)
                made.buses.append(bus)
                endpoints.append(bus)
        rows = []
        for count in (1, 10):
            rows.append((
                f"{kind.value} x{count}",
                median(args.repeat, lambda: sink_rate(kind, endpoints[:count], dict(STATIC_AWS), args.aws_messages)),
                median(args.repeat, lambda: bare_aws_rate(kind, endpoints[0], args.aws_messages, args.threads)),
            ))
        return rows
    finally:
        for queue in made.queues:
            aws("sqs").delete_queue(QueueUrl=queue)
        made.queues.clear()
        for bus in made.buses:
            aws("events").delete_event_bus(Name=bus)
        made.buses.clear()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--rabbit-messages", type=int, default=2000)
    parser.add_argument("--aws-messages", type=int, default=300)
    parser.add_argument("--threads", type=int, default=get_settings().sink_io_threads)
    parser.add_argument("--kinds", default="rabbitmq,sqs,eventbridge")
    parser.add_argument("--engine", action="store_true", help="also run hub deliver to RabbitMQ")
    parser.add_argument("--engine-only", action="store_true", help="only the hub deliver rows")
    parser.add_argument("--engine-events", type=int, default=1000, help="events per engine run (x subscriptions)")
    parser.add_argument("--engine-workers", type=int, default=1, help="hub deliver processes")
    args = parser.parse_args()
    print(f"{'destination (subscriptions)':<28}{'sink msg/s':>12}{'bare msg/s':>12}{'ratio':>8}", flush=True)
    kinds = [] if args.engine_only else args.kinds.split(",")
    if args.engine or args.engine_only:
        kinds.append("engine")
    for kind in kinds:
        if kind == "engine":
            rows = bench_rabbitmq_engine(args)
        else:
            rows = bench_rabbitmq(args) if kind == "rabbitmq" else bench_aws(SinkKind(kind), args)
        for name, sink, bare in rows:
            print(f"{name:<28}{sink:>12,.0f}{bare:>12,.0f}{sink / bare:>8.2f}", flush=True)


if __name__ == "__main__":
    main()

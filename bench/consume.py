"""Consumer service throughput and latency (seed 000, issue 20), beside a bare pika consumer on the same broker.

A scratch database, a topic prefix of its own and real processes: ``hub grpc``, two ``hub ingest`` and
``hub consumer-relay``. Events are published with gRPC ``BatchPublishEvents`` (100 per call) and consumed
with ``ConsumeDurableEventsWithAcks``, every delivery acknowledged (stubs from the committed protos). The
publishing client runs in a process of its own, as another service would; the consuming clients run here:

* **throughput, 1 and 10 queues**: N events published as fast as the publisher takes them; timed from the
  first publish to the last delivery on every queue. ``ev/s`` is events through the whole pipeline
  (publish → Kafka → event log → exchange → queue → client → ack); ``deliveries/s`` counts each queue;
* **latency at 1,000 ev/s**: events paced at 1,000/s for ``--seconds``, publish → receipt p50/p99 (one queue).
* **drain, 1 and 10 queues**: the queues filled first, then drained with acks; CPU µs per delivery, so that
  ``hub grpc``'s figure is the stream's own (in the throughput runs it also serves the publishes).

The baselines are the machine's ceilings for the last hops: a bare pika publisher and consumer (acks) on a
quorum queue of the same RabbitMQ, same event count and pacing (the bare publisher does not wait for a confirm
per message: a blocking pika channel would wait ~1 ms for each, a ceiling of its own, not the broker's); and a
bare grpc.aio stream of one prebuilt event per response, acked like the hub's (bench/_grpc_bare.py), with its
server's and client's CPU per message. Each throughput run also prints the CPU µs per event of every part
(the hub's processes, RabbitMQ, Kafka, PostgreSQL and the bench's clients) and the rate the machine's cores
could carry at that cost: the pipeline's ceiling here.
Targets: >= 5,000 events/s consumed with acks, p99 <= 100 ms. Wall-clock figures on a shared 2-core machine are noisy.

Run: ``python bench/consume.py`` (``--events N``, default 20,000; ``--seconds S`` of paced load, default 10;
``--only drain,bare`` a subset of the scenarios; ``--rounds R``, default 2).
"""

from __future__ import annotations

import argparse
import asyncio
import multiprocessing
import os
import statistics
import sys
import time
import uuid
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

import grpc  # noqa: E402
import pika  # noqa: E402

from bench._cpu import cpu_snapshot, per_event_line  # noqa: E402
from bench._grpc_bare import ack_requests, bare_stream  # noqa: E402
from bench._ingest_setup import Scratch, delete_kafka  # noqa: E402
from bench._pika_bare import bare_scenario  # noqa: E402
from bench._publish_procs import HubProcesses  # noqa: E402
from bench.publish import proto_event  # noqa: E402
from hub.auth.tokens import mint_token  # noqa: E402
from hub.config import get_settings  # noqa: E402
from hub.consumer.access import consumer_claims  # noqa: E402
from hub.consumer.topology import queue_name  # noqa: E402
from hub.grpcapi.stubs import consumer_stubs, publisher_stubs  # noqa: E402
from hub.publisher.access import publish_claims  # noqa: E402

cpb, cpb_grpc = consumer_stubs()
ppb, ppb_grpc = publisher_stubs()
PUBLISHERS, BATCH = 8, 100
PUBLISHER_CPU = [0.0]  # seconds the publisher processes spent publishing (their start-up not counted)


def percentile(values: list[float], q: int) -> float:
    return statistics.quantiles(values, n=100)[q - 1] if len(values) >= 2 else (values or [0.0])[0]


async def consume(address: str, token: str, queue_id: str, want: int, latencies: list[float],
                  done: asyncio.Event, ends: list[float] | None = None) -> None:
    """Consume QUEUE_ID with acks until WANT events arrived; each event's publish → receipt latency, and
    when the last arrived on ENDS."""
    acks: asyncio.Queue = asyncio.Queue()
    async with grpc.aio.insecure_channel(address) as channel:
        stub = cpb_grpc.EventConsumerServiceStub(channel)
        call = stub.ConsumeDurableEventsWithAcks(ack_requests(queue_id, acks),
                                                 metadata=(("authorization", f"Bearer {token}"),))
        seen = 0
        async for response in call:
            now = time.time()
            for event in response.events:
                latencies.append((now - event.message["sent"]) * 1000)
            seen += len(response.events)
            acks.put_nowait(response.delivery_tag)
            if seen >= want:
                break
        if ends is not None:
            ends.append(time.monotonic())
        await asyncio.sleep(0.2)  # the last acks leave
        call.cancel()
    done.set()


async def publish(address: str, token: str, events: int, rate: float | None) -> None:
    """EVENTS events in batches of 100 from 8 clients; paced at RATE events/s when given."""
    async with grpc.aio.insecure_channel(address) as channel:
        stub = ppb_grpc.EventPublishingServiceStub(channel)
        metadata = (("authorization", f"Bearer {token}"),)
        batches = iter(range(events // BATCH))
        started = time.monotonic()

        async def client() -> None:
            for index in batches:
                if rate:
                    await asyncio.sleep(max(started + index * BATCH / rate - time.monotonic(), 0))
                request = ppb.BatchPublishEventsRequest(events=[stamped(index * BATCH + n) for n in range(BATCH)])
                response = await stub.BatchPublishEvents(request, metadata=metadata)
                assert all(result.success for result in response.results)

        await asyncio.gather(*(client() for _ in range(PUBLISHERS)))


def _publisher_process(address: str, token: str, events: int, rate: float | None, ready: Any, go: Any,
                       done: Any, spent: Any) -> None:
    ready.set()  # imported: the clock may start
    go.wait()
    started = time.process_time()
    asyncio.run(publish(address, token, events, rate))
    spent.value = time.process_time() - started
    done.set()


async def publish_elsewhere(address: str, token: str, events: int, rate: float | None) -> float:
    """Publish from a process of its own (a publisher is another service than its consumers, and in this
    process its request building delayed the receipts being timed); returns when the publishing started."""
    context = multiprocessing.get_context("spawn")  # no fork: this process holds live gRPC channels
    ready, go, done, spent = context.Event(), context.Event(), context.Event(), context.Value("d", 0.0)
    child = context.Process(target=_publisher_process, args=(address, token, events, rate, ready, go, done, spent))
    child.start()
    while not ready.is_set():
        await asyncio.sleep(0.05)
    started = time.monotonic()
    go.set()
    while not done.is_set():
        if not child.is_alive():
            raise RuntimeError("the publisher process failed")
        await asyncio.sleep(0.05)
    child.join()
    PUBLISHER_CPU[0] += spent.value
    return started


def clients_cpu_seconds() -> float:
    """CPU seconds of the bench's clients so far: the consumers here and the publishers' publishing."""
    return time.process_time() + PUBLISHER_CPU[0]


def stamped(n: int):  # noqa: ANN201
    event = proto_event(n, "consume")
    event.message.update({"sent": time.time()})
    return event


async def make_queues(address: str, tenant: str, queues: int) -> tuple[list[str], str, str]:
    """QUEUES new durable queues of bench events: (their ids, a consumer token, a publisher token)."""
    permissions, claims = consumer_claims([], None)
    consumer = mint_token(tenant=tenant, permissions=permissions, claims=claims, ttl_seconds=7200)
    permissions, claims = publish_claims([], ["*"])
    publisher = mint_token(tenant=tenant, permissions=permissions, claims=claims, ttl_seconds=7200)
    async with grpc.aio.insecure_channel(address) as channel:
        stub = cpb_grpc.EventConsumerServiceStub(channel)
        ids = []
        for _ in range(queues):
            request = cpb.CreateDurableQueueRequest(filter_groups=[cpb.FilterGroup(event_type="bench.published")])
            ids.append((await stub.CreateDurableQueue(request, metadata=(("authorization", f"Bearer {consumer}"),)))
                       .queue_id)
    return ids, consumer, publisher


async def delete_queues(address: str, consumer: str, ids: list[str]) -> None:
    async with grpc.aio.insecure_channel(address) as channel:  # later scenarios must not feed these queues
        stub = cpb_grpc.EventConsumerServiceStub(channel)
        for queue_id in ids:
            await stub.DeleteDurableQueue(cpb.DeleteDurableQueueRequest(queue_id=queue_id),
                                          metadata=(("authorization", f"Bearer {consumer}"),))


async def consume_all(address: str, token: str, ids: list[str], events: int, latencies: list[float],
                      ends: list[float] | None = None) -> None:
    dones = [asyncio.Event() for _ in ids]
    consumers = [consume(address, token, queue_id, events, latencies, done, ends)
                 for queue_id, done in zip(ids, dones, strict=True)]
    await asyncio.wait_for(asyncio.gather(*consumers), timeout=600)


async def hub_scenario(address: str, tenant: str, queues: int, events: int, rate: float | None) -> tuple:
    ids, consumer, publisher = await make_queues(address, tenant, queues)
    latencies: list[float] = []
    consumers = asyncio.create_task(consume_all(address, consumer, ids, events, latencies))
    await asyncio.sleep(0.5)
    started = await publish_elsewhere(address, publisher, events, rate)
    await consumers
    elapsed = time.monotonic() - started
    await delete_queues(address, consumer, ids)
    return elapsed, latencies


def wait_for_depth(ids: list[str], events: int, timeout: float = 300) -> None:
    """Return once every queue of IDS holds EVENTS ready messages."""
    connection = pika.BlockingConnection(pika.URLParameters(get_settings().rabbitmq_url))
    deadline = time.monotonic() + timeout
    try:
        while time.monotonic() < deadline:
            depths = [connection.channel().queue_declare(queue_name(queue_id), passive=True).method.message_count
                      for queue_id in ids]
            if min(depths) >= events:
                return
            time.sleep(0.2)
        raise TimeoutError(f"the queues hold {depths} of {events} events")
    finally:
        connection.close()


async def drain_scenario(hub: HubProcesses, tenant: str, queues: int, events: int) -> tuple[float, dict, dict]:
    """The stream alone: the queues filled first, then drained with acks; (seconds, CPU before, CPU after).
    In the throughput runs ``hub grpc`` also serves the publishes; here its CPU is the streams' own."""
    ids, consumer, publisher = await make_queues(hub.grpc, tenant, queues)
    await publish_elsewhere(hub.grpc, publisher, events, None)
    await asyncio.to_thread(wait_for_depth, ids, events)
    before = cpu_snapshot(hub.pids(), clients_cpu_seconds())
    started, ends = time.monotonic(), []
    await consume_all(hub.grpc, consumer, ids, events, [], ends)
    after = cpu_snapshot(hub.pids(), clients_cpu_seconds())  # the last acks are in: consume waits for them
    await delete_queues(hub.grpc, consumer, ids)
    return max(ends) - started, before, after


def report(name: str, events: int, queues: int, elapsed: float, latencies: list[float]) -> tuple:
    rate = events / elapsed
    p50, p99 = statistics.median(latencies), percentile(latencies, 99)
    print(f"{name:<28} {rate:>8,.0f} ev/s  {rate * queues:>8,.0f} deliveries/s  "
          f"p50 {p50:7.1f} ms  p99 {p99:7.1f} ms", flush=True)
    return name, rate, rate * queues, p50, p99


SCENARIOS = ("throughput", "drain", "bare", "paced")


def drain_round(hub: HubProcesses, tenant: str, events: int, round_: int) -> None:
    """The filled queues drained, 1 and 10 of them: deliveries/s and CPU µs per delivery."""
    for queues in (1, 10):
        elapsed, before, after = asyncio.run(drain_scenario(hub, tenant, queues, events))
        print(f"{f'hub drain, {queues} queue(s), run {round_}':<28} {events / elapsed:>8,.0f} ev/s  "
              f"{events * queues / elapsed:>8,.0f} deliveries/s", flush=True)
        print(per_event_line(before, after, events * queues).replace("µs/event", "µs/delivery"), flush=True)


def one_round(hub: HubProcesses, tenant: str, events: int, paced: int, round_: int, only: set[str]) -> list[tuple]:
    """The ONLY scenarios once, hub and bare interleaved: throughput with 1 and 10 queues, the drain, the
    bare pika and gRPC baselines, the paced run."""
    results = []
    for queues in (1, 10) if "throughput" in only else ():
        before = cpu_snapshot(hub.pids(), clients_cpu_seconds())
        elapsed, latencies = asyncio.run(hub_scenario(hub.grpc, tenant, queues, events, None))
        results.append(report(f"hub, {queues} queue(s), run {round_}", events, queues, elapsed, latencies))
        print(per_event_line(before, cpu_snapshot(hub.pids(), clients_cpu_seconds()), events), flush=True)
    if "drain" in only:
        drain_round(hub, tenant, events, round_)
    if "bare" in only:
        results.append(report(f"bare pika, run {round_}", events, 1, *bare_scenario(events, None)))
        rate, server_us, client_us = bare_stream(events)
        print(f"{f'bare gRPC stream, run {round_}':<28} {rate:>8,.0f} msg/s  CPU µs/message: server "
              f"{server_us:,.0f}, client {client_us:,.0f}", flush=True)
    if "paced" in only:
        elapsed, latencies = asyncio.run(hub_scenario(hub.grpc, tenant, 1, paced, 1000))
        results.append(report(f"hub @1,000/s, run {round_}", paced, 1, elapsed, latencies))
        results.append(report(f"bare pika @1,000/s, run {round_}", paced, 1, *bare_scenario(paced, 1000)))
    return results


def measure(hub: HubProcesses, tenant: str, events: int, paced: int, rounds: int, only: set[str]) -> list[tuple]:
    """A warm-up, then ROUNDS rounds of the ONLY scenarios."""
    asyncio.run(hub_scenario(hub.grpc, tenant, 1, 1000, None))  # warm-up: topics, assignments
    return [row for round_ in range(1, rounds + 1) for row in one_round(hub, tenant, events, paced, round_, only)]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--events", type=int, default=20_000)
    parser.add_argument("--seconds", type=int, default=10, help="seconds of paced 1,000 ev/s load")
    parser.add_argument("--rounds", type=int, default=2)
    parser.add_argument("--only", default=",".join(SCENARIOS), help=f"a comma-separated subset of {SCENARIOS}")
    args = parser.parse_args()
    prefix, tenant = f"bench{uuid.uuid4().hex[:8]}.", f"bench-{uuid.uuid4().hex[:8]}"
    paced = args.seconds * 1000
    with Scratch() as scratch:
        try:
            with HubProcesses(scratch.url, prefix, extra=("consumer-relay",),
                              settings={"HUB_CONSUMER_RELAY_POLL_SECONDS": "0.5"}) as hub:
                results = measure(hub, tenant, args.events, paced, args.rounds, set(args.only.split(",")))
        finally:
            delete_kafka([f"{prefix}event-publisher-service"], [f"ingest-{prefix}"])
    print("\n| scenario | ev/s | deliveries/s | p50 ms | p99 ms |\n|---|---|---|---|---|")
    for name, rate, deliveries, p50, p99 in results:
        print(f"| {name} | {rate:,.0f} | {deliveries:,.0f} | {p50:.1f} | {p99:.1f} |")


if __name__ == "__main__":
    os.environ.setdefault("HUB_LOG_LEVEL", "WARNING")
    main()

"""Live in under 100 ms (issue 39): a stage clock of single-event publishes, hop by hop, seed 000 and seed 003.

A scratch database, a topic prefix of its own and real processes (``hub api``, ``hub grpc``, one
``hub ingest`` as ``hub dev`` runs by default (``--ingest-workers``; a variant's ``ingest=2`` overrides it),
``hub consumer-relay``, default settings). A publisher process of its own sends SINGLE
events at a steady rate, each on its own schedule (aiohttp for REST, grpc.aio for gRPC), and times its
answers; the readers run here. For each event, milliseconds since it was sent:

* **answered**: the publish call returned (seed 003's answer waits for the stored event, E7);
* **stored**: the event log's ``received_at`` (ingest's clock at its batch);
* **relayed** (seed 000): the relay's cursor passed the event's seq, read by polling
  ``consumer_relay_cursors`` every 2 ms (the cursor moves right after the page's confirms);
  **first frame** (seed 003): the earliest of the subscribers' frames, the feed's notice plus one hop;
* **received**: every queue's gRPC ``ConsumeDurableEventsWithAcks`` client (each response acked), the
  SSE reader of ``/api/v1beta/events/stream`` (scenario ``sse``: REST publishes, a non-durable queue), or
  every WebSocket subscriber (``/api/{tenant}/event/ws``).

Each run also prints the CPU µs per event of every hub process and of the stack's services, and the
clients' own: the publisher's and the readers' µs per event, and the rate one core of each could carry
(the client's ceiling; it must be far above the offered rate). Wall-clock figures on a shared 2-core
machine are noisy.

Run: ``python bench/live.py`` (``--rates 100,500``, ``--seconds 10``, ``--only rest,grpc,rest10,grpc10,sse,broker``;
``--variant name:HUB_X=1 --variant other: --rounds 2``: the hub processes restarted with each variant's
settings, the variants alternating within each round).
"""

from __future__ import annotations

import argparse
import asyncio
import os
import sys
import time
import uuid
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from bench._cpu import cpu_snapshot, per_event_line
from bench._dev_tree import DevTree
from bench._ingest_setup import Scratch, delete_kafka
from bench._live_readers import consume, queues_of, sse, subscribe
from bench._publish_procs import HubProcesses
from bench._stage_clock import STORED, CursorWatch, Publisher, pct, stage_lines, stored_rows
from hub.auth.tokens import mint_token
from hub.consumer.access import consumer_claims
from hub.kafka import ensure_topics
from hub.publisher.access import publish_claims

SCENARIOS = {"rest": ("rest", 1), "grpc": ("grpc", 1), "rest10": ("rest", 10),
             "grpc10": ("grpc", 10), "sse": ("rest", 1), "broker": ("broker", 10)}
LIMIT = [0]  # the publisher's bound on requests in flight (--limit; 0: none)
GRACE = 10.0  # seconds after the last publish for the last receipt


def tokens(tenant: str) -> dict[str, str]:
    permissions, claims = consumer_claims([], None)
    consumer = mint_token(tenant=tenant, permissions=permissions, claims=claims, ttl_seconds=7200)
    permissions, claims = publish_claims([], ["*"])
    publisher = mint_token(tenant=tenant, permissions=permissions, claims=claims, ttl_seconds=7200)
    broker = mint_token(tenant=tenant, permissions=[], event_broker={"*": {"data": "PRD", "topics": "RW"}},
                        ttl_seconds=7200)
    return {"consumer": consumer, "publisher": publisher, "broker": broker}


async def readers(scenario: str, hub: HubProcesses, tenant: str, keys: dict, run: str, want: int) -> tuple:
    """Start the scenario's readers; (their tasks, receipts dict, cleanup coroutine function)."""
    kind, count = SCENARIOS[scenario]
    received: dict = {}
    if kind == "broker":
        url = f"ws{hub.rest[4:]}/api/{tenant}/event/ws?topic={run}&token={keys['broker']}"
        readies = [asyncio.Event() for _ in range(count)]
        tasks = [asyncio.create_task(subscribe(url, run, received, i, ready)) for i, ready in enumerate(readies)]
        await asyncio.gather(*(ready.wait() for ready in readies))

        async def cleanup() -> None:
            return None
    elif scenario == "sse":
        ready = asyncio.Event()
        tasks = [asyncio.create_task(sse(hub.rest, keys["consumer"], run, received, ready))]
        await asyncio.wait_for(ready.wait(), 10)

        async def cleanup() -> None:
            return None
    else:
        ids = await queues_of(hub.grpc, keys["consumer"], count)
        tasks = [asyncio.create_task(consume(hub.grpc, keys["consumer"], queue_id, run, received, want))
                 for queue_id in ids]

        async def cleanup() -> None:
            await queues_of(hub.grpc, keys["consumer"], 0, delete=ids)
    await asyncio.sleep(1.0)  # every reader attached (the feed's cursor, the queues' consumers)
    return tasks, received, cleanup


async def scenario_run(scenario: str, hub: HubProcesses, dsn: str, tenant: str, keys: dict, rate: int,
                       seconds: float) -> list[str]:
    """One scenario at RATE for SECONDS: its stage table and CPU lines."""
    kind, count = SCENARIOS[scenario]
    run, events = f"{scenario}{uuid.uuid4().hex[:6]}", int(rate * seconds)
    target = hub.grpc if kind == "grpc" else hub.rest
    publisher = Publisher({"kind": kind, "target": target, "token": keys["broker" if kind == "broker" else "publisher"],
                           "tenant": tenant, "topic": run, "run": run, "rate": rate, "seconds": seconds,
                           "limit": LIMIT[0]})
    tasks, received, cleanup = await readers(scenario, hub, tenant, keys, run, events)
    watch = CursorWatch(dsn, tenant)
    if kind != "broker":  # its polls cost PostgreSQL CPU: only where a relay hop is timed
        watch.start()
    clients_before = time.process_time()
    before = cpu_snapshot(hub.pids(), 0.0)
    publisher.go()
    timed, publisher_cpu = await asyncio.to_thread(publisher.result, seconds + 120)
    deadline = time.monotonic() + GRACE
    while len(received) < events * count and time.monotonic() < deadline:
        await asyncio.sleep(0.05)
    after = cpu_snapshot(hub.pids(), 0.0)
    if watch.is_alive():
        watch.stop()
    readers_cpu = time.process_time() - clients_before - watch.cpu
    for task in tasks:
        task.cancel()
    await asyncio.gather(*tasks, return_exceptions=True)
    await cleanup()
    return report(scenario, rate, events, count, dsn, tenant, run, timed, received, watch,
                  [per_event_line(before, after, events), clients_line(publisher_cpu, readers_cpu, events, count)])


def report(scenario: str, rate: int, events: int, count: int, dsn: str, tenant: str, run: str, timed: list,
           received: dict, watch: CursorWatch, cpu_lines: list[str]) -> list[str]:
    sent = {n: at for n, at, _, _ in timed}
    stored = stored_rows(dsn, tenant, run)
    hops = {"answered": ({n: answered for n, _, answered, _ in timed}, events),
            STORED: ({n: at for n, (_, at) in stored.items()}, events)}
    if scenario == "broker":
        first: dict[int, float] = {}
        for (_, n), at in received.items():
            first[n] = min(at, first.get(n, at))
        hops["first frame (feed noticed + 1 hop)"] = (first, events)
    else:
        relayed = {n: watch.relayed_at(seq) for n, (seq, _) in stored.items()}
        hops["relayed (cursor past seq)"] = ({n: at for n, at in relayed.items() if at}, events)
    hops[f"received, {count} reader(s)"] = (received, events * count)
    name = f"{scenario} ({SCENARIOS[scenario][0]} single, {count} reader(s)) @ {rate}/s"
    return stage_lines(name, sent, hops) + [client_line(timed), batches_line(stored)] + cpu_lines


def client_line(timed: list) -> str:
    """How late the client itself sent (behind its schedule: its in-flight bound was full), and the longest
    answer: the run's longest stall."""
    late = [row[3] * 1000 for row in timed]
    answers = [(answered - sent) * 1000 for _, sent, answered, _ in timed]
    return (f"  client late p50 / p99 / max {pct(late, 0.5):,.1f} / {pct(late, 0.99):,.1f} / {max(late, default=0):,.1f} ms"
            f" (at most {LIMIT[0] or 'unbounded'} in flight); longest answer {max(answers, default=0):,.1f} ms")


def batches_line(stored: dict[int, tuple[int, float]]) -> str:
    """Ingest's transactions for the run (one ``received_at`` per batch): every later hop pays per batch."""
    batches = len({at for _, at in stored.values()})
    return f"  ingest batches: {batches:,} ({len(stored) / max(batches, 1):.1f} events per batch)"


def clients_line(publisher_cpu: float, readers_cpu: float, events: int, readers: int) -> str:
    """The clients' CPU µs per event and the rate one core of each could carry: their own ceilings."""
    pub, read = publisher_cpu / events * 1e6, readers_cpu / events * 1e6
    return (f"  clients µs/event: publisher {pub:,.0f} (ceiling {1e6 / max(pub, 1):,.0f} ev/s), "
            f"{readers} reader(s) together {read:,.0f} (ceiling {1e6 / max(read, 1):,.0f} ev/s)")


async def measure(hub: HubProcesses, dsn: str, tenant: str, rates: list[int], only: list[str],
                  seconds: float) -> list[str]:
    keys = tokens(tenant)
    # Warm-up (topics, assignments, connections), but not as `hub dev`: a user's first events meet it cold.
    for scenario in only if not isinstance(hub, DevTree) else ():
        await scenario_run(scenario, hub, dsn, tenant, keys, 20, 2)
    lines = []
    for rate in rates:
        for scenario in only:
            found = await scenario_run(scenario, hub, dsn, tenant, keys, rate, seconds)
            print("\n".join(found), flush=True)
            lines += found
    return lines


def variant(text: str) -> tuple[str, dict[str, str]]:
    """``name:HUB_X=1,HUB_Y=2``: a name and the settings the hub processes run with (none: ``defaults``)."""
    name, _, spec = text.partition(":")
    return name or "defaults", dict(item.split("=", 1) for item in filter(None, spec.split(",")))


def hub_tree(as_dev: bool, url: str, prefix: str, settings: dict[str, str], workers: int) -> DevTree | HubProcesses:
    """``hub dev`` itself (AS_DEV; its ingest count is its own), or the processes the stage clock needs."""
    if as_dev:
        return DevTree(url, prefix, settings=settings)
    return HubProcesses(url, prefix, extra=("consumer-relay",), settings=settings, ingest_workers=workers)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--rates", default="100,500")
    parser.add_argument("--seconds", type=float, default=10.0)
    parser.add_argument("--only", default=",".join(SCENARIOS))
    parser.add_argument("--variant", dest="variants", action="append", type=variant, default=[],
                        help="name:HUB_X=1,...: hub settings to compare; repeated, they alternate each round")
    parser.add_argument("--rounds", type=int, default=1)
    parser.add_argument("--ingest-workers", type=int, default=1, help="hub ingest processes (hub dev's default: 1)")
    parser.add_argument("--as-dev", action="store_true", help="run `hub dev` itself, every child at its defaults")
    parser.add_argument("--limit", type=int, default=0, help="the publisher's requests in flight at most (0: none)")
    args = parser.parse_args()
    LIMIT[0] = args.limit
    prefix, tenant = f"live{uuid.uuid4().hex[:8]}.", f"live-{uuid.uuid4().hex[:8]}"
    topics = [f"{prefix}event-publisher-service", f"{prefix}event-broker", f"{prefix}dlq"]
    os.environ["HUB_KAFKA_TOPIC_PREFIX"] = prefix
    lines = []
    with Scratch() as scratch:
        try:
            if not args.as_dev:  # `hub dev` meets the topics as a fresh stack has them: missing
                ensure_topics(topics)
            for run in range(args.rounds):
                for name, variant_settings in args.variants or [("defaults", {})]:
                    settings = dict(variant_settings)
                    workers = int(settings.pop("ingest", args.ingest_workers))
                    with hub_tree(args.as_dev, scratch.url, prefix, settings, workers) as hub:
                        lines.append(f"-- round {run + 1}, variant {name} {settings or ''}, {workers} ingest, "
                                     f"load {os.getloadavg()[0]:.2f}")
                        print(lines[-1], flush=True)
                        lines += asyncio.run(measure(hub, scratch.dsn, tenant, [int(r) for r in args.rates.split(",")],
                                                     args.only.split(","), args.seconds))
        finally:
            delete_kafka(topics, [f"ingest-{prefix}"])
    print("\n== stage table (ms since the publish was sent)\n" + "\n".join(lines))


if __name__ == "__main__":
    os.environ.setdefault("HUB_LOG_LEVEL", "WARNING")
    main()

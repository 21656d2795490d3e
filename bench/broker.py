"""The event broker (seed 003): HTTP publish, history reads and live fan-out, medians side by side.

Everything runs on a scratch database (created, migrated, dropped) with a private topic prefix,
a real ``hub ingest`` and a real ``hub api`` (uvicorn, one worker).

* **Publish**: 32 concurrent HTTP clients ``POST /api/{domain}/event/data/{topic}`` for
  ``--seconds``; events/s and p50/p99 of one publish (each answer waits for the stored event:
  read-your-writes). Beside it, the backbone alone: the same records produced straight to Kafka
  by the shared producer in batches of 500, as ``hub send`` does (no HTTP, no wait for ingest).
* **History**: ``GET …/data/orders?limit=100`` on a Main Topic holding ``--events`` events
  (default 1,000,000) over 1,000 sub-topics (config unbounded), 200 reads; p50/p99. Target:
  p50 ≤ 50 ms. The rows are written by SQL (``generate_series``), shaped as ingest writes them.
  A sub-topic read and a ``type``-filtered read are shown too.
* **Live fan-out**: 100 WebSocket subscribers of one topic while events are produced at
  ``--rate`` (default 1,000/s); p99 of publish (the event's ts) → frame received. Then the same
  with one stalled subscriber that never reads: its p99 must not move the others'. Beside them, the
  machine's ceiling: a bare ``websockets`` server process broadcasting the same rate of frames to 100
  clients read by the same client code (``bench/_ws_bare.py``; no database, no Kafka). Issue 39's own loads
  (10 × 500/s, 100 × 100/s, a stalled subscriber overrun before the window, clients in several processes):
  ``bench/broker_live.py``.

Each measurement runs ``--repeat`` times (default 3); the table shows medians. Wall-clock figures
on a shared 2-core machine are noisy: read the individual runs printed above the table.

Run: ``python bench/broker.py`` (``--quick``: 100,000 history events, shorter runs, one repetition).
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import os
import socket
import statistics
import subprocess
import sys
import time
import uuid
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import httpx
import orjson
import psycopg

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench._ingest_setup import Scratch, delete_kafka  # noqa: E402
from bench._processes import wait_for_api, worker_processes  # noqa: E402
from hub.auth.tokens import mint_token  # noqa: E402
from hub.backbone.producer import shared_producer  # noqa: E402
from hub.broker.grammar import parse_topic  # noqa: E402
from hub.broker.publish import build_record  # noqa: E402
from hub.kafka import ensure_topics  # noqa: E402

TENANT = "bench-broker"
GRANTS = {"*": {"data": "PRD", "topics": "RW"}}
SEED_SQL = """
INSERT INTO event_log (tenant_id, seq, source, ce_id, event_type, schema_version, schema_major, partition_key,
                       event_time, received_at, attributes, data, kafka_topic, kafka_partition, kafka_offset)
SELECT %(tenant)s, g, 'event-broker', gen_random_uuid()::text,
       CASE WHEN g %% 10 = 0 THEN 'order.shipped' ELSE 'order.updated' END, '1.0.0', 1, 'orders',
       to_timestamp((%(base)s + g) / 1000.0), now(), json_build_object('subject', 'orders:' || (g %% 1000)),
       json_build_object('n', g, 'carrier', 'DHL', 'tracking', md5(g::text)), 'event-broker', 0, g
  FROM generate_series(1, %(count)s) g;
INSERT INTO broker_events (tenant_id, seq, main_topic, topic, event_type, ts)
SELECT %(tenant)s, g, 'orders', 'orders:' || (g %% 1000),
       CASE WHEN g %% 10 = 0 THEN 'order.shipped' ELSE 'order.updated' END, %(base)s + g
  FROM generate_series(1, %(count)s) g;
INSERT INTO tenant_counters (tenant_id, last_seq) VALUES (%(tenant)s, %(count)s);
INSERT INTO broker_topic_configs VALUES (%(tenant)s, 'orders', NULL, NULL, now(), now());
"""


def pct(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(len(ordered) * q))] if ordered else float("nan")


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


@contextmanager
def hub_processes(scratch: Scratch, prefix: str) -> Iterator[str]:
    """``hub ingest`` and ``hub api`` on the scratch database; yields the API's base URL."""
    port = free_port()
    group = f"ingest-{prefix}"
    env = {**os.environ, "HUB_DATABASE_URL": scratch.url, "HUB_KAFKA_TOPIC_PREFIX": prefix,
           "HUB_KAFKA_CONSUMER_GROUP": group, "HUB_KAFKA_DLQ_GROUP": f"{group}-dlq", "HUB_INGEST_METRICS_PORT": "0",
           "HUB_LOG_LEVEL": "WARNING", "HUB_API_PORT": str(port), "HUB_API_HOST": "127.0.0.1",
           "HUB_INGEST_BATCH_MAX_MS": "5", "HUB_INGEST_BATCH_IDLE_MS": "1"}
    os.environ.update({"HUB_KAFKA_TOPIC_PREFIX": prefix})
    ensure_topics([f"{prefix}event-broker", f"{prefix}dlq", f"{prefix}streaming-hub"], partitions=1)
    commands = [[sys.executable, "-m", "workers.cli", "ingest"], [sys.executable, "-m", "workers.cli", "api"]]
    base = f"http://127.0.0.1:{port}"
    with worker_processes(commands, env):
        wait_for_api(base, seconds=90)
        try:
            yield base
        finally:
            delete_kafka([f"{prefix}event-broker", f"{prefix}dlq", f"{prefix}streaming-hub"], [group, f"{group}-dlq"])


# -- publish ----------------------------------------------------------------------------------------
async def http_publish(base: str, token: str, seconds: float, clients: int = 32) -> tuple[float, float, float]:
    """(events/s, p50 ms, p99 ms) of CLIENTS concurrent publishers for SECONDS."""
    latencies: list[float] = []
    url = f"{base}/api/{TENANT}/event/data/pub:"
    headers = {"authorization": f"Bearer {token}"}
    end = time.monotonic() + seconds

    async def client(n: int, http: httpx.AsyncClient) -> None:
        while time.monotonic() < end:
            started = time.perf_counter()
            answer = await http.post(f"{url}{n}", json={"type": "order.shipped", "data": {"n": n}}, headers=headers)
            if answer.status_code != 201:
                raise RuntimeError(answer.text)
            latencies.append((time.perf_counter() - started) * 1000)

    started = time.monotonic()
    async with httpx.AsyncClient(timeout=30, limits=httpx.Limits(max_connections=clients)) as http:
        await asyncio.gather(*(client(n, http) for n in range(clients)))
    return len(latencies) / (time.monotonic() - started), pct(latencies, 0.5), pct(latencies, 0.99)


def backbone_publish(count: int) -> float:
    """Events/s of the same records produced straight to the backbone, 500 per call (as ``hub send``)."""
    topic = parse_topic("pub:direct")
    records = [build_record(tenant_id=TENANT, topic=topic, event_type="order.shipped", data={"n": i},
                            ts=time.time_ns() // 1_000_000) for i in range(count)]
    producer = shared_producer()
    started = time.perf_counter()
    for first in range(0, count, 500):
        assert producer.publish(f"{os.environ['HUB_KAFKA_TOPIC_PREFIX']}event-broker", records[first:first + 500]).durable
    return count / (time.perf_counter() - started)


# -- history ----------------------------------------------------------------------------------------
def seed_history(scratch: Scratch, count: int) -> None:
    with psycopg.connect(scratch.dsn, autocommit=True) as connection:
        params = {"tenant": TENANT, "count": count, "base": time.time_ns() // 1_000_000 - count - 1000}
        with connection.transaction():
            for statement in SEED_SQL.split(";\n"):
                if statement.strip():
                    connection.execute(statement, params)
        connection.execute("VACUUM ANALYZE broker_events")
        connection.execute("VACUUM ANALYZE event_log")


def history_reads(base: str, token: str, path: str, reads: int = 200) -> tuple[float, float]:
    """(p50 ms, p99 ms) of READS sequential history reads of PATH."""
    latencies: list[float] = []
    with httpx.Client(timeout=30, headers={"authorization": f"Bearer {token}"}) as http:
        for _ in range(reads):
            started = time.perf_counter()
            answer = http.get(f"{base}/api/{TENANT}/event/data/{path}")
            if answer.status_code != 200:
                raise RuntimeError(answer.text)
            latencies.append((time.perf_counter() - started) * 1000)
    return pct(latencies, 0.5), pct(latencies, 0.99)


# -- live -------------------------------------------------------------------------------------------
def stalled_socket(base: str, path: str) -> socket.socket:
    """A WebSocket client that completes the handshake and then never reads."""
    host, port = base.removeprefix("http://").split(":")
    sock = socket.socket()
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
    sock.connect((host, int(port)))
    sock.sendall((f"GET {path} HTTP/1.1\r\nHost: {host}\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
                  "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n\r\n").encode())
    return sock


async def subscribers_of(url: str, count: int) -> tuple[list, list[asyncio.Task], list[float]]:
    """COUNT WebSocket clients of URL, each reading frames and noting ts → receipt (ms): (sockets, readers,
    latencies)."""
    from websockets.asyncio.client import connect

    latencies: list[float] = []
    sockets = [await connect(url, max_size=None) for _ in range(count)]

    async def receive(ws) -> None:  # noqa: ANN001
        async for message in ws:
            latencies.append(time.time() * 1000 - orjson.loads(message)["ts"])

    return sockets, [asyncio.create_task(receive(ws)) for ws in sockets], latencies


async def closed(sockets: list, readers: list[asyncio.Task]) -> None:
    for reader in readers:
        reader.cancel()
    for ws in sockets:
        await ws.close()


async def live_fanout(base: str, token: str, seconds: float, rate: int, subscribers: int = 100,
                      stalled: bool = False) -> tuple[float, int]:
    """(p99 ms publish → frame over every subscriber, frames received) at RATE events/s."""
    topic = f"live{uuid.uuid4().hex[:6]}"
    path = f"/api/{TENANT}/event/ws?topic={topic}&token={token}"
    sockets, readers, latencies = await subscribers_of(f"ws{base[4:]}{path}", subscribers)
    stuck = stalled_socket(base, path) if stalled else None
    await asyncio.sleep(1.0)  # every subscriber registered with the feed
    parsed, producer = parse_topic(f"{topic}:a"), shared_producer()
    kafka_topic = f"{os.environ['HUB_KAFKA_TOPIC_PREFIX']}event-broker"
    tick, per_tick = 0.01, max(1, rate // 100)
    end = time.monotonic() + seconds
    blob = {"carrier": "DHL", "tracking": "JD014600003SE"}
    while time.monotonic() < end:
        started = time.monotonic()
        records = [build_record(tenant_id=TENANT, topic=parsed, event_type="tick", data=blob,
                                ts=time.time_ns() // 1_000_000) for _ in range(per_tick)]
        await producer.publish_async(kafka_topic, records)
        await asyncio.sleep(max(0.0, tick - (time.monotonic() - started)))
    await asyncio.sleep(2.0)
    await closed(sockets, readers)
    if stuck is not None:
        stuck.close()
    return pct(latencies, 0.99), len(latencies)


async def bare_fanout(seconds: float, rate: int, subscribers: int = 100) -> tuple[float, int]:
    """The machine's ceiling for the same fan-out: a bare ``websockets`` server process broadcasting RATE
    frames/s to SUBSCRIBERS clients read by this same client code (bench/_ws_bare.py)."""
    port = free_port()
    server = subprocess.Popen([sys.executable, str(Path(__file__).with_name("_ws_bare.py")), str(port), str(rate)])
    try:
        for _ in range(100):
            with contextlib.suppress(OSError), socket.create_connection(("127.0.0.1", port), timeout=0.2):
                break
            time.sleep(0.1)
        sockets, readers, latencies = await subscribers_of(f"ws://127.0.0.1:{port}/", subscribers)
        await asyncio.sleep(seconds)
        await closed(sockets, readers)
        return pct(latencies, 0.99), len(latencies)
    finally:
        server.terminate()
        server.wait(timeout=10)


def row(name: str, runs: list[tuple], fields: list[str]) -> str:
    medians = [statistics.median(run[i] for run in runs) for i in range(len(fields))]
    return f"{name:<48}" + "".join(f"{field}={value:>10.1f}  " for field, value in zip(fields, medians))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--quick", action="store_true")
    parser.add_argument("--events", type=int, default=1_000_000)
    parser.add_argument("--seconds", type=float, default=10.0)
    parser.add_argument("--rate", type=int, default=1000)
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    if args.quick:
        args.events, args.seconds, args.repeat = 100_000, 4.0, 1
    token = mint_token(tenant=TENANT, permissions=[], event_broker=GRANTS, ttl_seconds=7200)
    prefix = f"bb{uuid.uuid4().hex[:8]}."
    results: dict[str, list[tuple]] = {}
    with Scratch() as scratch:
        print(f"seeding {args.events:,} history events …", flush=True)
        seed_history(scratch, args.events)
        with hub_processes(scratch, prefix) as base:
            http_publish_warm = asyncio.run(http_publish(base, token, 1.0))
            del http_publish_warm
            for run in range(args.repeat):
                measured = {
                    "publish: HTTP, 32 clients (ev/s, p50, p99 ms)": asyncio.run(http_publish(base, token, args.seconds)),
                    "publish: backbone only, as hub send (ev/s)": (backbone_publish(5000),),
                    "history: Main Topic, limit=100 (p50, p99 ms)": history_reads(base, token, "orders?limit=100"),
                    "history: type filter, limit=100 (p50, p99 ms)": history_reads(
                        base, token, "orders?limit=100&type=order.shipped"),
                    "history: sub-topic, limit=100 (p50, p99 ms)": history_reads(base, token, "orders:42?limit=100"),
                    "live: 100 subscribers (p99 ms, frames)": asyncio.run(live_fanout(base, token, args.seconds,
                                                                                    args.rate)),
                    "live: 100 + 1 stalled (p99 ms, frames)": asyncio.run(live_fanout(base, token, args.seconds,
                                                                                    args.rate, stalled=True)),
                    "live, bare websockets server: 100 (p99 ms, frames)": asyncio.run(bare_fanout(args.seconds,
                                                                                                args.rate)),
                }
                for name, values in measured.items():
                    print(f"run {run + 1}: {name}: " + ", ".join(f"{v:.1f}" for v in values), flush=True)
                    results.setdefault(name, []).append(values)
    print("\nmedians")
    for name, runs in results.items():
        print(row(name, runs, ["a", "b", "c"][:len(runs[0])]))


if __name__ == "__main__":
    main()

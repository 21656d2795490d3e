"""Publisher throughput (seed 000, issue 19): events/s *stored* with 32 concurrent clients.

A scratch database (created, migrated, dropped), a topic prefix of its own, and real processes:
``hub api`` (REST), ``hub grpc`` and two ``hub ingest`` workers. Each scenario publishes its events
from 32 concurrent clients (asyncio tasks in this process) and is timed from the first call to the
moment the last event is in the tenant's event log:

* **REST single**: ``POST /api/v1beta/events``, one event per call;
* **REST batch 100**: ``POST /api/v1beta/events/batch``, 100 events per call;
* **gRPC batch 100**: ``BatchPublishEvents``, 100 events per call (stubs from the committed protos);
* **hub send**: ``hub.devtools.send`` (what ``hub send`` runs) straight to Kafka, 100 per call,
  from 32 threads, for comparison.

Also each scenario's publish-call latency p50/p99. Targets (issue 19): gRPC batches >= 10,000
events/s stored, REST single >= 2,000/s. Wall-clock figures on a shared 2-core machine are noisy.

Run: ``python bench/publish.py`` (``--events N`` per scenario, default 20,000; REST single uses a
fifth of it).
"""

from __future__ import annotations

import argparse
import asyncio
import os
import statistics
import subprocess
import sys
import time
import uuid
from collections.abc import Awaitable, Callable
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

import grpc  # noqa: E402
import httpx  # noqa: E402
import psycopg  # noqa: E402
from google.protobuf import struct_pb2, timestamp_pb2  # noqa: E402

from bench._ingest_setup import Scratch, delete_kafka  # noqa: E402
from hub.auth.tokens import mint_token  # noqa: E402
from hub.grpcapi.stubs import publisher_stubs  # noqa: E402
from hub.publisher.access import publish_claims  # noqa: E402

CLIENTS = 32
OCCURRED = "2024-10-16T14:30:00Z"
pb, pb_grpc = publisher_stubs()


def free_port() -> int:
    import socket

    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def stored(dsn: str, tenant: str) -> int:
    with psycopg.connect(dsn, autocommit=True) as conn:
        return conn.execute("SELECT count(*) FROM event_log WHERE tenant_id = %s", (tenant,)).fetchone()[0]


def wait_stored(dsn: str, tenant: str, count: int, timeout: float = 600) -> float:
    deadline = time.monotonic() + timeout
    while stored(dsn, tenant) < count:
        if time.monotonic() > deadline:
            raise RuntimeError(f"only {stored(dsn, tenant)} of {count} events stored")
        time.sleep(0.05)
    return time.monotonic()


def rest_event(n: int, run: str) -> dict:
    return {"event_type": "bench.published", "message": {"n": n, "run": run}, "occurred_at": OCCURRED,
            "resource": {"resource_id": f"/bench/{n % 64}"}}


def proto_event(n: int, run: str):  # noqa: ANN201
    message = struct_pb2.Struct()
    message.update({"n": n, "run": run})
    occurred = timestamp_pb2.Timestamp()
    occurred.FromJsonString(OCCURRED)
    return pb.Event(event_type="bench.published", message=message, occurred_at=occurred,
                    resource=pb.EventResource(resource_id=f"/bench/{n % 64}"))


async def drive(calls: int, call: Callable[[int], Awaitable[None]]) -> list[float]:
    """CALLS calls of CALL(i) from 32 concurrent tasks; returns each call's latency in ms."""
    latencies: list[float] = []
    queue = iter(range(calls))

    async def client() -> None:
        for index in queue:
            started = time.perf_counter()
            await call(index)
            latencies.append((time.perf_counter() - started) * 1000)

    await asyncio.gather(*(client() for _ in range(CLIENTS)))
    return latencies


def rest_scenario(base: str, token: str, events: int, batch: int) -> Callable[[str], Awaitable[list[float]]]:
    async def run(tag: str) -> list[float]:
        headers = {"Authorization": f"Bearer {token}"}
        limits = httpx.Limits(max_connections=CLIENTS, max_keepalive_connections=CLIENTS)
        async with httpx.AsyncClient(base_url=base, headers=headers, limits=limits, timeout=60) as client:
            async def call(i: int) -> None:
                numbers = range(i * batch, (i + 1) * batch)
                if batch == 1:
                    response = await client.post("/api/v1beta/events", json={"event": rest_event(i, tag)})
                    assert response.json()["result"]["success"], response.text
                else:
                    response = await client.post("/api/v1beta/events/batch",
                                                 json={"events": [rest_event(n, tag) for n in numbers]})
                    assert all(r["success"] for r in response.json()["results"]), response.text[:300]
            return await drive(events // batch, call)
    return run


def grpc_scenario(address: str, token: str, events: int, batch: int) -> Callable[[str], Awaitable[list[float]]]:
    async def run(tag: str) -> list[float]:
        async with grpc.aio.insecure_channel(address) as channel:
            stub = pb_grpc.EventPublishingServiceStub(channel)
            metadata = (("authorization", f"Bearer {token}"),)

            async def call(i: int) -> None:
                request = pb.BatchPublishEventsRequest(events=[proto_event(n, tag)
                                                               for n in range(i * batch, (i + 1) * batch)])
                response = await stub.BatchPublishEvents(request, metadata=metadata)
                assert all(r.success for r in response.results)
            return await drive(events // batch, call)
    return run


def send_scenario(tenant: str, events: int, batch: int) -> Callable[[str], Awaitable[list[float]]]:
    from hub.devtools.send import SendRequest, send

    async def run(tag: str) -> list[float]:
        def one(_: int) -> float:
            started = time.perf_counter()
            send(SendRequest(tenant=tenant, source="bench-send", event_type="bench.sent", data={"run": tag},
                             count=batch))
            return (time.perf_counter() - started) * 1000
        loop = asyncio.get_running_loop()
        with ThreadPoolExecutor(CLIENTS) as pool:
            return list(await asyncio.gather(*(loop.run_in_executor(pool, one, i) for i in range(events // batch))))
    return run


def measure(name: str, scenario: Callable[[str], Awaitable[list[float]]], dsn: str, tenant: str,
            events: int) -> tuple[str, float, float, float]:
    before = stored(dsn, tenant)
    started = time.monotonic()
    latencies = asyncio.run(scenario(uuid.uuid4().hex[:8]))
    finished = wait_stored(dsn, tenant, before + events)
    rate = events / (finished - started)
    p50 = statistics.median(latencies)
    p99 = statistics.quantiles(latencies, n=100)[98] if len(latencies) >= 2 else latencies[0]
    print(f"{name:<16} {events:>7} events  {rate:>9,.0f} ev/s stored  call p50 {p50:7.1f} ms  p99 {p99:7.1f} ms",
          flush=True)
    return name, rate, p50, p99


def start(command: str, env: dict[str, str]) -> subprocess.Popen:
    return subprocess.Popen([sys.executable, "-m", "workers.cli", command], env={**os.environ, **env}, cwd=ROOT,
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)


def wait_up(rest: str, grpc_address: str) -> None:
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        try:
            if httpx.get(f"{rest}/healthz", timeout=1).status_code == 200:
                with grpc.insecure_channel(grpc_address) as channel:
                    grpc.channel_ready_future(channel).result(timeout=2)
                return
        except (httpx.HTTPError, grpc.FutureTimeoutError):
            pass
        time.sleep(0.3)
    raise RuntimeError("hub api / hub grpc did not come up")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--events", type=int, default=20_000, help="events per scenario (REST single: a fifth)")
    args = parser.parse_args()
    prefix = f"bench{uuid.uuid4().hex[:8]}."
    tenant = f"bench-{uuid.uuid4().hex[:8]}"
    os.environ["HUB_KAFKA_TOPIC_PREFIX"] = prefix  # hub send, in this process
    with Scratch() as scratch:
        api_port, grpc_port = free_port(), free_port()
        env = {"HUB_DATABASE_URL": scratch.url, "HUB_KAFKA_TOPIC_PREFIX": prefix, "HUB_LOG_LEVEL": "WARNING",
               "HUB_KAFKA_CONSUMER_GROUP": f"ingest-{prefix}", "HUB_API_PORT": str(api_port),
               "HUB_GRPC_PORT": str(grpc_port)}
        children = [start("api", env), start("grpc", env), start("ingest", env), start("ingest", env)]
        try:
            rest, address = f"http://127.0.0.1:{api_port}", f"127.0.0.1:{grpc_port}"
            wait_up(rest, address)
            permissions, claims = publish_claims([], ["*"])
            token = mint_token(tenant=tenant, permissions=permissions, claims=claims, ttl_seconds=7200)
            asyncio.run(rest_scenario(rest, token, 100, 100)("warmup"))  # topics created, ingest assigned
            wait_stored(scratch.dsn, tenant, 100)
            results = [
                measure("REST single", rest_scenario(rest, token, args.events // 5, 1), scratch.dsn, tenant,
                        args.events // 5),
                measure("REST batch 100", rest_scenario(rest, token, args.events, 100), scratch.dsn, tenant,
                        args.events),
                measure("gRPC batch 100", grpc_scenario(address, token, args.events, 100), scratch.dsn, tenant,
                        args.events),
                measure("hub send", send_scenario(tenant, args.events, 100), scratch.dsn, tenant, args.events),
            ]
        finally:
            for child in children:
                child.terminate()
            for child in children:
                child.wait(timeout=20)
            delete_kafka([f"{prefix}event-publisher-service", f"{prefix}bench-send"], [f"ingest-{prefix}"])
    print("\n| scenario | ev/s stored | call p50 ms | call p99 ms |\n|---|---|---|---|")
    for name, rate, p50, p99 in results:
        print(f"| {name} | {rate:,.0f} | {p50:.1f} | {p99:.1f} |")


if __name__ == "__main__":
    main()

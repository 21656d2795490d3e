"""Publisher throughput (seed 000, issue 19): events/s *stored* with 32 concurrent clients.

A scratch database (created, migrated, dropped), a topic prefix of its own, and real processes:
``hub api`` (REST, its default worker processes), ``hub grpc`` and two ``hub ingest`` workers. Each
scenario is timed from its first call to the moment its last acknowledged event is in the tenant's
event log:

* **REST single**: ``POST /api/v1beta/events``, one event per call;
* **REST batch 100**: ``POST /api/v1beta/events/batch``, 100 events per call;
* **gRPC batch 100**: ``BatchPublishEvents``, 100 events per call (stubs from the committed protos);
* **hub send**: ``hub.devtools.send`` (what ``hub send`` runs) straight to Kafka, 100 per call,
  from 32 threads, for comparison.

The REST clients are ``wrk -t2 -c32`` running ``bench/publish.lua`` for ``--seconds`` (every event
distinct): one Python asyncio process with httpx measured itself, not the server — its connection
pool spent ~16 ms of CPU per call, capping REST single at ~60-90 calls/s (docs/contract-notes.md N61).
The gRPC client is one grpc-aio process whose requests are built before the clock starts.

Each row also gives the publish-call latency p50/p99 and the CPU the hub's processes spent per event
(api, grpc, ingest; from /proc), which stays comparable when the shared machine's wall-clock
rates do not. ``--ceilings`` adds wrk at the API's ``/healthz`` (the bare HTTP ceiling of the
same processes). Targets (issue 19): gRPC batches >= 10,000 events/s stored, REST single >= 2,000/s.

Run: ``python bench/publish.py`` (``--seconds`` per REST scenario, default 10; ``--events`` per
gRPC / hub send scenario, default 20,000; ``--only rest-single,grpc`` to pick scenarios).
"""

from __future__ import annotations

import argparse
import asyncio
import os
import re
import statistics
import subprocess
import sys
import time
import uuid
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

import grpc  # noqa: E402
import httpx  # noqa: E402
import psycopg  # noqa: E402
from google.protobuf import struct_pb2, timestamp_pb2  # noqa: E402

from bench._ingest_setup import Scratch, delete_kafka  # noqa: E402
from bench._publish_procs import HubProcesses  # noqa: E402
from hub.auth.tokens import mint_token  # noqa: E402
from hub.grpcapi.stubs import publisher_stubs  # noqa: E402
from hub.publisher.access import publish_claims  # noqa: E402

CLIENTS = 32
OCCURRED = "2024-10-16T14:30:00Z"
SCENARIOS = ("rest-single", "rest-batch", "grpc", "send")
pb, pb_grpc = publisher_stubs()


@dataclass
class Run:
    """What one scenario's clients did: events acknowledged, failed calls, call latency p50/p99 in ms."""

    events: int
    failed_calls: int
    p50: float
    p99: float


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


Scenario = Callable[[str], Callable[[], Run]]  # a run tag -> the timed part (what can be built first, is)


def wrk_scenario(base: str, token: str, batch: int, seconds: int) -> Scenario:
    """``wrk -t2 -c32`` for SECONDS running bench/publish.lua with BATCH events per call."""
    def run(tag: str) -> Run:
        argv = ["wrk", "-t2", f"-c{CLIENTS}", f"-d{seconds}s", "--timeout", "30s", "-s", str(ROOT / "bench/publish.lua"),
                "-H", f"Authorization: Bearer {token}", base, "--", str(batch), tag]
        output = subprocess.run(argv, capture_output=True, text=True, check=True, timeout=seconds + 90).stdout
        found = re.search(r"PUBLISH ok=(\d+) failed=(\d+) p50=([\d.]+) p99=([\d.]+)", output)
        if found is None:
            raise RuntimeError(f"wrk printed no PUBLISH line:\n{output}")
        ok, failed = int(found.group(1)), int(found.group(2))
        return Run(ok * batch, failed, float(found.group(3)), float(found.group(4)))
    return lambda tag: lambda: run(tag)


def proto_event(n: int, run: str):  # noqa: ANN201
    message = struct_pb2.Struct()
    message.update({"n": n, "run": run})
    occurred = timestamp_pb2.Timestamp()
    occurred.FromJsonString(OCCURRED)
    return pb.Event(event_type="bench.published", message=message, occurred_at=occurred,
                    resource=pb.EventResource(resource_id=f"/bench/{n % 64}"))


def latency_run(events: int, latencies: list[float], failed: int) -> Run:
    p99 = statistics.quantiles(latencies, n=100)[98] if len(latencies) >= 2 else latencies[0]
    return Run(events, failed, statistics.median(latencies), p99)


def grpc_scenario(address: str, token: str, events: int, batch: int) -> Scenario:
    """32 grpc-aio tasks sending EVENTS in batches of BATCH; the requests are built before the clock starts."""
    def prepare(tag: str) -> Callable[[], Run]:
        requests = [pb.BatchPublishEventsRequest(events=[proto_event(n, tag) for n in range(i, i + batch)])
                    for i in range(0, events, batch)]

        async def clients() -> Run:
            latencies: list[float] = []
            failed = [0]
            queue = iter(requests)
            async with grpc.aio.insecure_channel(address) as channel:
                stub = pb_grpc.EventPublishingServiceStub(channel)
                metadata = (("authorization", f"Bearer {token}"),)

                async def client() -> None:
                    for request in queue:
                        started = time.perf_counter()
                        response = await stub.BatchPublishEvents(request, metadata=metadata)
                        latencies.append((time.perf_counter() - started) * 1000)
                        failed[0] += not all(r.success for r in response.results)
                await asyncio.gather(*(client() for _ in range(CLIENTS)))
            return latency_run(events, latencies, failed[0])
        return lambda: asyncio.run(clients())
    return prepare


def send_scenario(tenant: str, events: int, batch: int) -> Scenario:
    from hub.devtools.send import SendRequest, send

    def prepare(tag: str) -> Callable[[], Run]:
        def one(_: int) -> float:
            started = time.perf_counter()
            send(SendRequest(tenant=tenant, source="bench-send", event_type="bench.sent", data={"run": tag},
                             count=batch))
            return (time.perf_counter() - started) * 1000

        def run() -> Run:
            with ThreadPoolExecutor(CLIENTS) as pool:
                return latency_run(events, list(pool.map(one, range(events // batch))), 0)
        return run
    return prepare


def measure(name: str, scenario: Scenario, hub: HubProcesses, dsn: str,
            tenant: str) -> tuple[str, float, Run, dict[str, float]]:
    """One scenario: its rate stored, its clients' figures, and the hub's CPU µs per event by process."""
    before = stored(dsn, tenant)
    prepared = scenario(uuid.uuid4().hex[:8])
    cpu = hub.cpu_seconds()
    started = time.monotonic()
    run = prepared()
    finished = wait_stored(dsn, tenant, before + run.events)
    spent = {name: (seconds - cpu[name]) * 1e6 / max(run.events, 1) for name, seconds in hub.cpu_seconds().items()}
    rate = run.events / (finished - started)
    cpu_text = " ".join(f"{name} {value:.0f}" for name, value in spent.items())
    print(f"{name:<16} {run.events:>7} events  {rate:>9,.0f} ev/s stored  call p50 {run.p50:7.1f} ms  "
          f"p99 {run.p99:7.1f} ms  failed calls {run.failed_calls}  CPU µs/event: {cpu_text}", flush=True)
    return name, rate, run, spent


def healthz_ceiling(base: str, seconds: int) -> float:
    """wrk -t2 -c32 at /healthz: what the same API processes answer with no publishing at all."""
    output = subprocess.run(["wrk", "-t2", f"-c{CLIENTS}", f"-d{seconds}s", f"{base}/healthz"], capture_output=True,
                            text=True, check=True, timeout=seconds + 60).stdout
    found = re.search(r"Requests/sec:\s+([\d.]+)", output)
    return float(found.group(1)) if found else float("nan")


def scenarios(args: argparse.Namespace, hub: HubProcesses, token: str, tenant: str) -> dict[str, tuple[str, Scenario]]:
    return {
        "rest-single": ("REST single", wrk_scenario(hub.rest, token, 1, args.seconds)),
        "rest-batch": ("REST batch 100", wrk_scenario(hub.rest, token, 100, args.seconds)),
        "grpc": ("gRPC batch 100", grpc_scenario(hub.grpc, token, args.events, 100)),
        "send": ("hub send", send_scenario(tenant, args.events, 100)),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--seconds", type=int, default=10, help="seconds of wrk per REST scenario")
    parser.add_argument("--events", type=int, default=20_000, help="events per gRPC / hub send scenario")
    parser.add_argument("--only", default=",".join(SCENARIOS), help=f"scenarios, of {','.join(SCENARIOS)}")
    parser.add_argument("--ceilings", action="store_true", help="also wrk at /healthz")
    args = parser.parse_args()
    subprocess.run(["bash", str(ROOT / "deploy/local/tools.sh"), "wrk"], check=True)
    prefix = f"bench{uuid.uuid4().hex[:8]}."
    tenant = f"bench-{uuid.uuid4().hex[:8]}"
    os.environ["HUB_KAFKA_TOPIC_PREFIX"] = prefix  # hub send, in this process
    results = []
    with Scratch() as scratch, HubProcesses(scratch.url, prefix) as hub:
        permissions, claims = publish_claims([], ["*"])
        token = mint_token(tenant=tenant, permissions=permissions, claims=claims, ttl_seconds=7200)
        warm = httpx.post(f"{hub.rest}/api/v1beta/events/batch", headers={"Authorization": f"Bearer {token}"},
                          json={"events": [{"event_type": "bench.warmup", "message": {"n": n}, "occurred_at": OCCURRED}
                                           for n in range(100)]}, timeout=60)
        warm.raise_for_status()  # topics created, ingest assigned
        wait_stored(scratch.dsn, tenant, 100)
        chosen = scenarios(args, hub, token, tenant)
        for key in args.only.split(","):
            name, scenario = chosen[key]
            results.append(measure(name, scenario, hub, scratch.dsn, tenant))
        if args.ceilings:
            print(f"ceiling: wrk at /healthz {healthz_ceiling(hub.rest, args.seconds):,.0f} req/s", flush=True)
    delete_kafka([f"{prefix}event-publisher-service", f"{prefix}bench-send"], [f"ingest-{prefix}"])
    print("\n| scenario | ev/s stored | call p50 ms | call p99 ms | CPU µs/event |\n|---|---|---|---|---|")
    for name, rate, run, spent in results:
        cpu_text = ", ".join(f"{key} {value:.0f}" for key, value in spent.items())
        print(f"| {name} | {rate:,.0f} | {run.p50:.1f} | {run.p99:.1f} | {cpu_text} |")


if __name__ == "__main__":
    main()

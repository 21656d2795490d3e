"""Live fan-out at issue 39's loads (seed 003, E9): N WebSocket subscribers of one topic at R events/s.

For each ``--loads`` entry ``NxR`` (default ``10x500,100x100``) three runs of ``--seconds``, side by side:

* **hub**: N subscribers of ``<topic>:a`` on a real ``hub api`` (with a real ``hub ingest``, scratch
  database, private topic prefix) while R events/s are produced to the backbone in 10 ms ticks, as
  ``hub send`` does; per frame, the milliseconds from the event's ``ts`` (its publish instant) to its
  receipt;
* **hub + 1 stalled**: the same with one more subscriber, of the whole topic, that completes its handshake
  and never reads. Before the measured window it is made to fall behind (large events on a sibling
  sub-topic the others do not see fill its socket, its transport and its buffer), so the window runs
  with the hub holding a subscriber it has given up on; the others' p99 must not move. The row says how
  much it was sent and whether the hub closed it with 4008 (fell behind);
* **bare ceiling**: a bare ``websockets`` server process (``bench/_ws_bare.py``: no database, no Kafka)
  broadcasting R frames/s to the same N subscribers: what this machine and client give at best.

The subscribers are spread over ``--procs`` client processes (``bench/_ws_readers.py``) so that the client
is not the bottleneck: each row prints the clients' CPU µs per frame and the frames/s that many processes
could read at full cores (their ceiling, to compare with N×R). Each row also prints the load average.
Wall-clock figures on a shared 2-core machine are noisy: interleave runs.

Run: ``python bench/broker_live.py`` (``--loads 10x500``, ``--seconds 10``, ``--procs 2``, ``--repeat 1``).
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import os
import re
import socket
import subprocess
import sys
import time
import uuid
from functools import partial
from pathlib import Path

import orjson

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench._ingest_setup import Scratch
from bench.broker import GRANTS, TENANT, free_port, hub_processes, pct, stalled_socket
from hub.auth.tokens import mint_token
from hub.backbone.producer import shared_producer
from hub.broker.grammar import parse_topic
from hub.broker.publish import build_record
from hub.config import get_settings

HERE = Path(__file__).resolve().parent
BLOB = {"carrier": "DHL", "tracking": "JD014600003SE"}
TICK = 0.01
PAD = "x" * 4096
STALL_BYTES = 8 << 20  # beyond a loopback socket's send and receive buffers (4 MiB each at most)


class Readers:
    """COUNT subscribers of URL spread over PROCS reader processes."""

    def __init__(self, url: str, count: int, procs: int) -> None:
        shares = [count // procs + (1 if i < count % procs else 0) for i in range(procs)]
        self.procs = [subprocess.Popen([sys.executable, str(HERE / "_ws_readers.py"), url, str(share)],
                                       stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
                      for share in shares if share]
        for proc in self.procs:
            if proc.stdout.readline().strip() != "ready":
                raise RuntimeError("a reader process did not connect")

    def results(self) -> tuple[list[float], float]:
        """Stop the readers: (every frame's latency in ms, the readers' CPU seconds together)."""
        latencies: list[float] = []
        cpu = 0.0
        for proc in self.procs:
            proc.stdin.write("stop\n")
            proc.stdin.flush()
        for proc in self.procs:
            found = orjson.loads(proc.stdout.readline())
            latencies += found["latencies"]
            cpu += found["cpu"]
            proc.wait(timeout=30)
        return latencies, cpu


async def produce(rate: int, seconds: float, topic: str) -> int:
    """Produce RATE events/s on TOPIC for SECONDS, stamped with their ts; the count produced."""
    parsed, producer = parse_topic(f"{topic}:a"), shared_producer()
    kafka_topic = f"{os.environ['HUB_KAFKA_TOPIC_PREFIX']}event-broker"
    per_tick, produced = max(1, round(rate * TICK)), 0
    end = time.monotonic() + seconds
    next_tick = time.monotonic()
    while time.monotonic() < end:
        records = [build_record(tenant_id=TENANT, topic=parsed, event_type="tick", data=BLOB,
                                ts=time.time_ns() // 1_000_000) for _ in range(per_tick)]
        await producer.publish_async(kafka_topic, records)
        produced += per_tick
        next_tick += TICK
        await asyncio.sleep(max(0.0, next_tick - time.monotonic()))
    return produced


def fell_behind(stuck: socket.socket) -> str:
    """Read what the stalled socket was sent: its size, and whether the hub closed it as fallen behind."""
    taken, deadline = bytearray(), time.monotonic() + 5
    stuck.settimeout(0.5)
    with contextlib.suppress(OSError):
        while time.monotonic() < deadline and (chunk := stuck.recv(1 << 20)):
            taken += chunk
    closed = re.search(rb"\x88[\x02-\x7d]\x0f\xa8", taken) is not None  # a close frame, code 4008
    return f"stalled one took {len(taken) // 1024:,} KB, closed 4008: {'yes' if closed else 'no'}"


def stall(topic: str) -> None:
    """Fill the stalled subscriber of TOPIC (the Main Topic) until the hub gives up on it: large events on
    a sibling sub-topic the readers do not subscribe to, more than its socket, its transport and its
    buffer of ``broker_ws_buffer_events`` frames hold together."""
    producer, parsed = shared_producer(), parse_topic(f"{topic}:stall")
    kafka_topic = f"{os.environ['HUB_KAFKA_TOPIC_PREFIX']}event-broker"
    count = get_settings().broker_ws_buffer_events + STALL_BYTES // len(PAD)
    for first in range(0, count, 500):
        records = [build_record(tenant_id=TENANT, topic=parsed, event_type="pad", data={"pad": PAD},
                                ts=time.time_ns() // 1_000_000) for _ in range(min(500, count - first))]
        assert producer.publish(kafka_topic, records).durable
    time.sleep(3.0)  # stored, handed out, and the stalled one's buffer overrun


def hub_run(base: str, token: str, subscribers: int, rate: int, seconds: float, procs: int,
            stalled: bool) -> dict:
    """SUBSCRIBERS readers of ``<topic>:a`` at RATE for SECONDS; with STALLED, one more subscriber of the
    whole topic that never reads, made to fall behind before the measured window starts."""
    topic = f"live{uuid.uuid4().hex[:6]}"
    path = f"/api/{TENANT}/event/ws?topic={topic}{{}}&token={token}"
    readers = Readers(f"ws{base[4:]}{path.format(':a')}", subscribers, procs)
    stuck = stalled_socket(base, path.format("")) if stalled else None
    time.sleep(1.0)  # every subscriber registered with the feed
    if stuck is not None:
        stall(topic)
    produced = asyncio.run(produce(rate, seconds, topic))
    time.sleep(2.0)
    latencies, cpu = readers.results()
    found = summary(latencies, cpu, produced * subscribers)
    if stuck is not None:
        found["note"] = fell_behind(stuck)
        stuck.close()
    return found


def bare_run(subscribers: int, rate: int, seconds: float, procs: int) -> dict:
    port = free_port()
    server = subprocess.Popen([sys.executable, str(HERE / "_ws_bare.py"), str(port), str(rate)])
    try:
        for _ in range(100):
            with contextlib.suppress(OSError), socket.create_connection(("127.0.0.1", port), timeout=0.2):
                break
            time.sleep(0.1)
        readers = Readers(f"ws://127.0.0.1:{port}/", subscribers, procs)
        started = time.monotonic()
        time.sleep(seconds)
        latencies, cpu = readers.results()
        return summary(latencies, cpu, int(rate * (time.monotonic() - started)) * subscribers)
    finally:
        server.terminate()
        server.wait(timeout=10)


def summary(latencies: list[float], cpu: float, expected: int) -> dict:
    per_frame = cpu / max(len(latencies), 1) * 1e6
    return {"p50": pct(latencies, 0.5), "p99": pct(latencies, 0.99), "max": max(latencies, default=float("nan")),
            "frames": len(latencies), "expected": expected, "client_us": per_frame}


def line(name: str, found: dict, procs: int) -> str:
    ceiling = procs * 1e6 / max(found["client_us"], 1)
    load = os.getloadavg()
    return (f"{name:<34} p50 {found['p50']:7.1f}  p99 {found['p99']:7.1f}  max {found['max']:7.1f} ms  "
            f"frames {found['frames']:,}/{found['expected']:,}  client {found['client_us']:.0f} µs/frame "
            f"(ceiling {ceiling:,.0f} frames/s)  load {load[0]:.2f} {load[1]:.2f}"
            + (f"  [{found['note']}]" if "note" in found else ""))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--loads", default="10x500,100x100", help="NxR: N subscribers at R events/s, comma-separated")
    parser.add_argument("--seconds", type=float, default=10.0)
    parser.add_argument("--procs", type=int, default=2, help="client processes the subscribers are spread over")
    parser.add_argument("--repeat", type=int, default=1)
    args = parser.parse_args()
    loads = [tuple(int(x) for x in load.split("x")) for load in args.loads.split(",")]
    token = mint_token(tenant=TENANT, permissions=[], event_broker=GRANTS, ttl_seconds=7200)
    prefix = f"bl{uuid.uuid4().hex[:8]}."
    lines: list[str] = []
    with Scratch() as scratch, hub_processes(scratch, prefix) as base:
        hub_run(base, token, 2, 50, 2.0, 1, stalled=False)  # warm-up: topic, assignment, connections
        for run in range(args.repeat):
            for subscribers, rate in loads:
                runs = {f"{subscribers} subscribers @ {rate}/s: hub": partial(
                            hub_run, base, token, subscribers, rate, args.seconds, args.procs, False),
                        f"{subscribers} + 1 stalled @ {rate}/s: hub": partial(
                            hub_run, base, token, subscribers, rate, args.seconds, args.procs, True),
                        f"{subscribers} @ {rate}/s: bare ceiling": partial(
                            bare_run, subscribers, rate, args.seconds, args.procs)}
                for name, measure in runs.items():
                    lines.append(f"run {run + 1}: " + line(name, measure(), args.procs))
                    print(lines[-1], flush=True)
    print("\n== live fan-out (ms from the event's ts to the frame)\n" + "\n".join(lines))


if __name__ == "__main__":
    os.environ.setdefault("HUB_LOG_LEVEL", "WARNING")
    main()

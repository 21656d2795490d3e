"""What bench/live.py stands on: a paced single-event publisher in a process of its own, a watch on the
relay's cursor, and the stage table (issue 39).

Not a bench of its own (``make bench`` skips ``bench/_*.py``). Every clock here is the machine's wall clock
(``time.time()``, PostgreSQL's ``received_at`` as ingest writes it): one machine, so the hops compare.
"""

from __future__ import annotations

import asyncio
import bisect
import multiprocessing
import statistics
import threading
import time
from typing import Any

import psycopg

OCCURRED = "2024-10-16T14:30:00Z"


def pct(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(len(ordered) * q))] if ordered else float("nan")


# -- the publisher ----------------------------------------------------------------------------------
async def _rest_sender(kind: str, target: str, token: str, tenant: str, topic: str):
    """A coroutine function publishing one event (N, RUN, SENT) by REST; the aiohttp session to close."""
    import aiohttp

    session = aiohttp.ClientSession(connector=aiohttp.TCPConnector(limit=256),
                                    headers={"authorization": f"Bearer {token}"})
    if kind == "rest":
        url = f"{target}/api/v1beta/events"

        def body(n: int, run: str, sent: float) -> dict:
            return {"event": {"event_type": "bench.published", "message": {"n": n, "run": run, "sent": sent},
                              "occurred_at": OCCURRED, "resource": {"resource_id": f"/bench/{n % 64}"}}}
    else:  # the broker's publish (seed 003): answered once the event is stored (E7)
        url = f"{target}/api/{tenant}/event/data/{topic}:a"

        def body(n: int, run: str, sent: float) -> dict:
            return {"type": "bench.tick", "data": {"n": n, "run": run, "sent": sent}}

    async def send(n: int, run: str, sent: float) -> None:
        async with session.post(url, json=body(n, run, sent)) as answer:
            if answer.status not in (200, 201):
                raise RuntimeError(f"{answer.status}: {await answer.text()}")
            await answer.read()

    return send, session.close


async def _grpc_sender(target: str, token: str):
    import grpc
    from google.protobuf import struct_pb2, timestamp_pb2

    from hub.grpcapi.stubs import publisher_stubs

    pb, pb_grpc = publisher_stubs()
    channel = grpc.aio.insecure_channel(target)
    stub, metadata = pb_grpc.EventPublishingServiceStub(channel), (("authorization", f"Bearer {token}"),)
    occurred = timestamp_pb2.Timestamp()
    occurred.FromJsonString(OCCURRED)

    async def send(n: int, run: str, sent: float) -> None:
        message = struct_pb2.Struct()
        message.update({"n": n, "run": run, "sent": sent})
        event = pb.Event(event_type="bench.published", message=message, occurred_at=occurred,
                         resource=pb.EventResource(resource_id=f"/bench/{n % 64}"))
        answer = await stub.PublishEvent(pb.PublishEventRequest(event=event), metadata=metadata)
        if not answer.result.success:
            raise RuntimeError(answer.result.error_message)

    return send, channel.close


async def _paced(spec: dict) -> list[tuple[int, float, float, float]]:
    """Publish spec['rate'] events/s for spec['seconds'], each on its own schedule (a late answer never
    delays the next publish), at most spec['limit'] in flight when given (a user's client has a bound:
    past it the client itself falls behind); (n, sent, answered, seconds late) of each, late = sent minus
    its scheduled moment."""
    if spec["kind"] == "grpc":
        send, close = await _grpc_sender(spec["target"], spec["token"])
    else:
        send, close = await _rest_sender(spec["kind"], spec["target"], spec["token"], spec["tenant"], spec["topic"])
    timed: list[tuple[int, float, float, float]] = []
    slots = asyncio.Semaphore(spec.get("limit") or 1 << 30)
    epoch = time.time() - time.monotonic()

    async def one(n: int, scheduled: float) -> None:
        async with slots:
            sent = time.time()
            await send(n, spec["run"], sent)
            timed.append((n, sent, time.time(), sent - epoch - scheduled))

    tasks, count = [], int(spec["rate"] * spec["seconds"])
    started = time.monotonic()
    for n in range(count):
        scheduled = started + n / spec["rate"]
        await asyncio.sleep(max(scheduled - time.monotonic(), 0))
        tasks.append(asyncio.create_task(one(n, scheduled)))
    await asyncio.gather(*tasks)
    await close()
    return timed


def _publisher_process(spec: dict, ready: Any, go: Any, out: Any) -> None:
    import uvloop

    ready.set()
    go.wait()
    started = time.process_time()
    timed = uvloop.run(_paced(spec))
    out.put((timed, time.process_time() - started))


class Publisher:
    """The paced publisher of SPEC (kind rest|grpc|broker, target, token, tenant, topic, run, rate, seconds),
    started in a process of its own (spawned, imported) so that its start-up is not on the clock."""

    def __init__(self, spec: dict) -> None:
        context = multiprocessing.get_context("spawn")
        self._ready, self._go, self._out = context.Event(), context.Event(), context.Queue()
        self._child = context.Process(target=_publisher_process, args=(spec, self._ready, self._go, self._out))
        self._child.start()
        if not self._ready.wait(60):
            raise RuntimeError("the publisher process did not start")

    def go(self) -> None:
        self._go.set()

    def result(self, timeout: float) -> tuple[list[tuple[int, float, float, float]], float]:
        """((n, sent, answered, seconds late) of each event, the publisher's CPU seconds)."""
        found = self._out.get(timeout=timeout)
        self._child.join(10)
        return found


# -- the relay's cursor ------------------------------------------------------------------------------
class CursorWatch(threading.Thread):
    """Polls ``consumer_relay_cursors.last_seq`` of TENANT every EVERY seconds; when each seq was first seen
    relayed. The cursor moves in the transaction that follows the page's confirms, so "relayed" is the
    confirm plus a commit, read within EVERY (the watch's own CPU is counted apart: :attr:`cpu`)."""

    def __init__(self, dsn: str, tenant: str, every: float = 0.002) -> None:
        super().__init__(daemon=True)
        self.dsn, self.tenant, self.every = dsn, tenant, every
        self.seen: list[tuple[int, float]] = []  # (last_seq, first seen at), last_seq ascending
        self.cpu, self._done = 0.0, threading.Event()

    def run(self) -> None:
        with psycopg.connect(self.dsn, autocommit=True) as conn:
            while not self._done.is_set():
                row = conn.execute("SELECT last_seq FROM consumer_relay_cursors WHERE tenant_id = %s",
                                   (self.tenant,)).fetchone()
                if row and (not self.seen or row[0] > self.seen[-1][0]):
                    self.seen.append((row[0], time.time()))
                time.sleep(self.every)
        self.cpu = time.thread_time()

    def stop(self) -> None:
        self._done.set()
        self.join(10)

    def relayed_at(self, seq: int) -> float | None:
        index = bisect.bisect_left(self.seen, (seq, 0.0))
        return self.seen[index][1] if index < len(self.seen) else None


def stored_rows(dsn: str, tenant: str, run: str) -> dict[int, tuple[int, float]]:
    """n -> (seq, received_at as epoch seconds) of the run's stored events."""
    sql = """SELECT (data->>'n')::int, seq, extract(epoch FROM received_at)::float8 FROM event_log
              WHERE tenant_id = %s AND data->>'run' = %s"""
    with psycopg.connect(dsn, autocommit=True) as conn:
        return {n: (seq, at) for n, seq, at in conn.execute(sql, (tenant, run)).fetchall()}


# -- the table --------------------------------------------------------------------------------------
def stage_lines(name: str, sent: dict[int, float], hops: dict[str, tuple[dict, int]]) -> list[str]:
    """One line per hop (when each event reached it, keyed by n or (reader, n); how many were expected): p50/p99 ms
    since the publish was sent, and since the event was stored (per event: what the hops after ingest add)."""
    stored = hops.get(STORED, ({}, 0))[0]
    lines = [f"{name}  (ms: since sent p50 / p99 | since stored p50 / p99)"]
    for hop, (at, expected) in hops.items():
        since_sent = [(moment - sent[_n(k)]) * 1000 for k, moment in at.items() if _n(k) in sent]
        after = [(moment - stored[_n(k)]) * 1000 for k, moment in at.items() if _n(k) in stored]
        tail = f"| {pct(after, 0.5):7.1f} / {pct(after, 0.99):7.1f}" if hop not in ("answered", STORED) else "|"
        lines.append(f"  {hop:<34} {pct(since_sent, 0.5):7.1f} / {pct(since_sent, 0.99):7.1f} {tail:<20} "
                     f"({len(since_sent):,} of {expected:,})")
    return lines


STORED = "stored (received_at)"


def _n(key: Any) -> int:
    return key[1] if isinstance(key, tuple) else key


def median(values: list[float]) -> float:
    return statistics.median(values) if values else float("nan")

"""Pull inbox read throughput: a reader paging 500 at a time through 200,000 events.

Everything runs on a scratch database (created, migrated, dropped). The events are the ingest
bench's binary-mode CloudEvents (~320 bytes of JSON data), decoded by the ingest decoder and
written by the real ingest store (``EventStore``), all for one tenant; every 100th event is an
``orders.created``, the rest ``transaction.posted``. Two pull subscriptions read them: ``all``
(no selectors, receives every event) and ``sparse`` (``event_types: [orders.created]``, 1 %).

Measurements, each repeated (``--repeat``, default 3), the table showing medians:

* **HTTP, all match**: a real ``hub api`` process (uvicorn, one worker) on the scratch database;
  one client reads ``GET /v1/events?subscription_id=…&limit=500`` with a bearer token until a read
  returns no event, starting from a fresh cursor. ev/s = events received / wall time from the
  first request to the last response. ms/read = median latency of one read.
* **HTTP, 1 % match**: the same for the ``sparse`` subscription: ev/s counts the events it
  receives; rows/s counts the event-log rows the reads examined (every row: the reads scan the
  whole log, at most ``HUB_PULL_SCAN_ROWS`` rows each, and move the cursor past what they scanned).
* **service, all match**: ``hub.pull.service.pull_events`` called in this process (no HTTP, no
  authentication, no rate limit), to show what the HTTP layer costs.
* **bare SELECT, pages of 500** (the ceiling): psycopg reads the same rows with the same keyset
  statement (same columns, ``seq > last ORDER BY seq LIMIT 500``), no filtering, no JSON, no
  acknowledgment.
* **bare SELECT, one statement**: all the tenant's rows in one ``SELECT``, for scale.

Ratios: each row's median ev/s (rows/s for the 1 % case) over the median of the paged ceiling.
The target is ≥ 20,000 events/s for the HTTP reader that receives every event. Wall-clock figures
on a shared 2-core machine are noisy: read the individual runs printed above the table.

Run: ``python bench/pull.py`` (``--quick``: 20,000 events, one repetition; ``--help``).
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import time
import uuid
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

import httpx  # noqa: E402
import orjson  # noqa: E402
import psycopg  # noqa: E402

from bench._ingest_setup import Scratch, build_records  # noqa: E402
from bench._processes import wait_for_api  # noqa: E402
from hub.auth.tokens import mint_token  # noqa: E402
from hub.pull.service import SCAN_SQL  # noqa: E402
from hub.cloudevent.decode import Event, decode_parts  # noqa: E402
from workers.ingest.matching import SubscriptionCache  # noqa: E402
from workers.ingest.store import EventStore  # noqa: E402

TENANT = "bench-pull"
SPARSE_TYPE, SPARSE_EVERY = "orders.created", 100
PAGE = 500
WRITE_BATCH = 5000


@dataclass
class Run:
    events: int
    seconds: float
    rows: int = 0
    read_ms: list[float] = field(default_factory=list)

    @property
    def rate(self) -> float:
        return self.events / self.seconds

    @property
    def row_rate(self) -> float:
        return self.rows / self.seconds


# -- setup ---------------------------------------------------------------------------------------------
def build_events(count: int) -> list[Event]:
    """The ingest bench's records, every 100th retyped, decoded by the ingest decoder."""
    events = []
    for i, record in enumerate(build_records(count, [TENANT])):
        if i % SPARSE_EVERY == 0:
            record.headers[3] = ("ce_type", SPARSE_TYPE.encode())
        decoded = decode_parts(record.headers, record.key, record.value, max_bytes=1 << 20)
        assert isinstance(decoded, Event), decoded
        events.append(decoded)
    return events


def fill(scratch: Scratch, events: list[Event]) -> None:
    store = EventStore(scratch.dsn, SubscriptionCache())
    try:
        for start in range(0, len(events), WRITE_BATCH):
            store.write(events[start:start + WRITE_BATCH], [], lambda _rejected: None)
    finally:
        store.close()
    with psycopg.connect(scratch.dsn, autocommit=True) as conn:
        conn.execute("VACUUM ANALYZE event_log")


def add_subscription(scratch: Scratch, name: str, event_types: list[str] | None) -> str:
    sub_id = uuid.uuid4()
    now = datetime.now(UTC)
    with psycopg.connect(scratch.dsn) as conn:
        conn.execute(
            "INSERT INTO subscriptions (id, tenant_id, name, sink_kind, endpoint, event_types, signature_version, "
            "plan_tier, enabled, verification_state, credential_kind, auto_disabled, disabled_reason, created_at, "
            "updated_at) VALUES (%s, %s, %s, 'pull', %s, %s, 'v1', 'standard', true, 'active', 'none', false, '', "
            "%s, %s)",
            (sub_id, TENANT, name, f"pull://{sub_id}",
             orjson.dumps(event_types).decode() if event_types else None, now, now))
    return str(sub_id)


def reset_cursors(scratch: Scratch) -> None:
    with psycopg.connect(scratch.dsn) as conn:
        conn.execute("DELETE FROM pull_cursors")


def free_port() -> int:
    import socket

    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


@contextmanager
def api_process(scratch: Scratch) -> Iterator[str]:
    """A real ``hub api`` on the scratch database; yields its base URL."""
    port = free_port()
    env = {**os.environ, "HUB_DATABASE_URL": scratch.url, "HUB_RATE_LIMIT_EVENTS": "10000000",
           "HUB_CATALOG_REFRESHER_ENABLED": "false", "HUB_LOG_LEVEL": "WARNING"}
    proc = subprocess.Popen([sys.executable, "-m", "hub.cli", "api", "--host", "127.0.0.1", "--port", str(port)],
                            cwd=ROOT, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    base = f"http://127.0.0.1:{port}"
    try:
        wait_for_api(base, seconds=60, process=proc)
        yield base
    finally:
        proc.terminate()
        try:
            proc.wait(20)
        except subprocess.TimeoutExpired:
            proc.kill()


# -- measurements --------------------------------------------------------------------------------------
def http_reader(base: str, token: str, sub: str) -> Run:
    """Page with limit=500 until a read returns nothing; counts events and the rows the reads examined."""
    events, latencies, position = 0, [], 0
    with httpx.Client(base_url=base, headers={"Authorization": f"Bearer {token}"}, timeout=60) as http:
        started = time.perf_counter()
        while True:
            sent = time.perf_counter()
            response = http.get("/v1/events", params={"subscription_id": sub, "limit": PAGE})
            latencies.append((time.perf_counter() - sent) * 1000)
            response.raise_for_status()
            page = orjson.loads(response.content)["events"]
            events += len(page)
            position = int(response.headers["X-Pull-Position"])
            if not page and response.headers["X-Pull-Caught-Up"] == "true":
                break
        seconds = time.perf_counter() - started
    return Run(events, seconds, rows=position, read_ms=latencies)


def in_process_reader(scratch: Scratch, sub: str) -> Run:
    """``pull_events`` called directly, paging the same way."""
    from hub.config import get_settings
    from hub.db import get_engine
    from hub.pull.service import pull_events
    from hub.subscription.values import Caller
    from sqlmodel import Session

    os.environ["HUB_DATABASE_URL"] = scratch.url
    get_settings.cache_clear()
    get_engine.cache_clear()
    events, caller = 0, Caller(tenant_id=TENANT)
    started = time.perf_counter()
    while True:
        with Session(get_engine(), expire_on_commit=False) as session:
            page = pull_events(session=session, caller=caller, subscription_id=sub, after=None, limit=PAGE)
        events += len(page.rows)
        if not page.rows and page.caught_up:
            break
    seconds = time.perf_counter() - started
    get_engine().dispose()
    return Run(events, seconds)


def bare_pages(scratch: Scratch) -> Run:
    """The ceiling: the route's keyset statement, pages of 500, nothing else."""
    events, last = 0, 0
    with psycopg.connect(scratch.dsn) as conn:
        started = time.perf_counter()
        while True:
            rows = conn.execute(SCAN_SQL, (TENANT, last, PAGE)).fetchall()
            if not rows:
                break
            events += len(rows)
            last = rows[-1][0]
        seconds = time.perf_counter() - started
    return Run(events, seconds)


def bare_one_statement(scratch: Scratch) -> Run:
    with psycopg.connect(scratch.dsn) as conn:
        started = time.perf_counter()
        rows = conn.execute(SCAN_SQL, (TENANT, 0, 1 << 62)).fetchall()
        seconds = time.perf_counter() - started
    return Run(len(rows), seconds)


# -- report --------------------------------------------------------------------------------------------
def median(values: list[float]) -> float:
    return statistics.median(values) if values else float("nan")


def print_table(results: dict[str, list[Run]], repeat: int, count: int) -> None:
    ceiling = median([run.rate for run in results["bare SELECT, pages of 500 (ceiling)"]])
    header = (f"| {'measurement':<38} | {'median ev/s':>11} | {'rows/s':>9} | {'ms/read p50':>11} | "
              f"{'vs ceiling':>10} |")
    print(f"\nmedians of {repeat} run(s), {count:,} events in the log:")
    print(header)
    print("|" + "|".join("-" * len(cell) for cell in header.split("|")[1:-1]) + "|")
    for name, runs in results.items():
        rate = median([run.rate for run in runs])
        rows = median([run.row_rate for run in runs]) if runs[0].rows else None
        latency = median([statistics.median(run.read_ms) for run in runs]) if runs[0].read_ms else None
        compared = (rows if rows is not None else rate) / ceiling
        print(f"| {name:<38} | {rate:>11,.0f} | {'-' if rows is None else f'{rows:,.0f}':>9} | "
              f"{'-' if latency is None else f'{latency:.1f}':>11} | {compared:>10.3f} |")


def measure(results: dict[str, list[Run]], name: str, run: Callable[[], Run], expected: int, rep: int) -> None:
    outcome = run()
    if outcome.events != expected:
        raise RuntimeError(f"{name}: read {outcome.events} events, expected {expected}")
    results[name].append(outcome)
    rows = f", {outcome.row_rate:,.0f} rows/s" if outcome.rows else ""
    print(f"  run {rep}: {name:<38} {outcome.rate:>10,.0f} ev/s{rows} ({outcome.seconds:.2f} s)", flush=True)


def parse(argv: list[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("--events", type=int, default=200_000, help="events in the tenant's log")
    parser.add_argument("--repeat", type=int, default=3, help="repetitions of each measurement")
    parser.add_argument("--quick", action="store_true", help="20,000 events, one repetition")
    args = parser.parse_args(argv)
    if args.quick:
        args.events, args.repeat = 20_000, 1
    return args


def main(argv: list[str] | None = None) -> int:
    args = parse(argv)
    print(f"pull bench: {args.events:,} events, pages of {PAGE}, {args.repeat} repetition(s)", flush=True)
    events = build_events(args.events)
    sparse = sum(1 for event in events if event.event_type == SPARSE_TYPE)
    token = mint_token(tenant=TENANT, permissions=["events:get"])
    names = ["HTTP, all match", "HTTP, 1 % match", "service, all match", "bare SELECT, pages of 500 (ceiling)",
             "bare SELECT, one statement"]
    results: dict[str, list[Run]] = {name: [] for name in names}
    with Scratch() as scratch:
        started = time.perf_counter()
        fill(scratch, events)
        print(f"stored {len(events):,} events with the ingest store in {time.perf_counter() - started:.1f} s",
              flush=True)
        everything, selective = add_subscription(scratch, "all", None), add_subscription(scratch, "sparse",
                                                                                         [SPARSE_TYPE])
        with api_process(scratch) as base:
            for rep in range(1, args.repeat + 1):
                reset_cursors(scratch)
                measure(results, names[0], lambda: http_reader(base, token, everything), len(events), rep)
                measure(results, names[1], lambda: http_reader(base, token, selective), sparse, rep)
                reset_cursors(scratch)
                measure(results, names[2], lambda: in_process_reader(scratch, everything), len(events), rep)
                measure(results, names[3], lambda: bare_pages(scratch), len(events), rep)
                measure(results, names[4], lambda: bare_one_statement(scratch), len(events), rep)
    print_table(results, args.repeat, len(events))
    return 0


if __name__ == "__main__":
    sys.exit(main())

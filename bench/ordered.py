"""Ordered delivery per key (N77, N78) beside the unordered path, in one run: deliveries/s sustained over
a backlog's drain, and the rate one request at a time per key allows.

**Setup** (bench/_deliver_hub.py's drain, as bench/deliver.py runs it): ``hub ingest`` and
``--deliver-workers`` ``hub deliver`` processes on a scratch database, nginx on loopback answering 200.
One tenant's webhook subscription gets every measured event; each event carries a ``partitionkey``
(also its Kafka record key, so a key's events share a partition). The deliver workers are stopped
(SIGSTOP) while the events are produced and ingested, then resumed; deliveries/s = (distinct
deliveries received - 1) / (last receipt - first receipt).

**Configurations**, interleaved, each run ``--repeat`` times (medians shown):

* ``unordered``: ``--deliveries`` events over ``--keys`` keys, the subscription unordered;
* ``ordered, K keys``: the same events, the subscription ordered by ``partitionkey`` (at most one
  request per key in flight: a key's next event is sent after the one before it was recorded);
  the ratio to ``unordered`` is the figure (target: at least 0.80);
* ``ordered, 1 key``: ``--one-key-deliveries`` events of one key: one request at a time, each sent
  after the one before was recorded. Printed beside the receiver's round trip (p50 of one
  synchronous request at a time over a keep-alive connection, bench/_receiver.py's baseline), and
  the time per delivery that the round trip does not explain (the claim, the settle, the wake-up).

Wall-clock figures on a shared 2-core machine are noisy: read the ratios of one run.

Run: ``python bench/ordered.py`` (``make bench-ordered``; ``--quick``: one repeat of smaller runs; ``--help``).
"""

from __future__ import annotations

import argparse
import statistics
import sys
import zlib
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

import psycopg  # noqa: E402

from bench._deliver_hub import Session, throughput  # noqa: E402
from bench._ingest_setup import PARTITIONS, Record, Scratch, build_records  # noqa: E402
from bench._receiver import Nginx, baseline_process, ensure_tools, event_body  # noqa: E402

ORDERING = '{"key": "partitionkey", "on_dead_letter": "skip"}'


def keyed(session: Session, events: int, keys: int, *, ordered: bool) -> list[Record]:
    """``events`` records of the session's first tenant, event i keyed ``k<i % keys>`` (partition by key);
    that tenant's subscription ordered by ``partitionkey`` when ``ordered``."""
    tenant = session.tenants[0]
    with psycopg.connect(session.scratch.dsn) as conn:
        conn.execute("TRUNCATE ordered_keys")
        conn.execute("UPDATE subscriptions SET ordering = %s WHERE tenant_id = %s", (ORDERING if ordered else None,
                                                                                      tenant))
        conn.execute("UPDATE subscription_versions SET version = version + 1 WHERE id = 1")
    records = build_records(events, [tenant], seed=17)
    for i, record in enumerate(records):
        key = f"k{i % keys}".encode()
        record.key, record.partition = key, zlib.crc32(key) % PARTITIONS
        record.headers.append(("ce_partitionkey", key))
    return records


def configurations(args: argparse.Namespace) -> dict[str, tuple[int, int, bool]]:
    """name -> (events, keys, ordered)."""
    return {"unordered": (args.deliveries, args.keys, False),
            f"ordered, {args.keys:,} keys": (args.deliveries, args.keys, True),
            "ordered, 1 key": (args.one_key_deliveries, 1, True)}


def measure(args: argparse.Namespace) -> tuple[dict[str, list[float]], list[float]]:
    """Each configuration's deliveries/s per repeat, and the receiver's round-trip p50 (ms) per repeat."""
    rates: dict[str, list[float]] = {name: [] for name in configurations(args)}
    round_trips: list[float] = []
    with Nginx() as nginx, Scratch() as scratch:
        for run in range(1, args.repeat + 1):
            trip = baseline_process(nginx, event_body(), seconds=3)
            round_trips.append(trip.p50 or 0.0)
            print(f"  run {run}: receiver round trip p50 {trip.p50:.2f} ms ({trip.rate:,.0f} requests/s one at a "
                  f"time)", flush=True)
            for name, (events, keys, ordered) in configurations(args).items():
                result = throughput(scratch, nginx, 1, events, args.deliver_workers,
                                    shape=lambda session, e=events, k=keys, o=ordered: keyed(session, e, k, ordered=o))
                rates[name].append(result.rate or 0.0)
                print(f"  run {run}: {name}: {events:,} deliveries at {result.rate or 0:,.0f}/s", flush=True)
    return rates, round_trips


def report(rates: dict[str, list[float]], round_trips: list[float], args: argparse.Namespace) -> None:
    medians = {name: statistics.median(values) for name, values in rates.items()}
    unordered, one_key = medians["unordered"], medians["ordered, 1 key"]
    trip = statistics.median(round_trips)
    print(f"\nmedians of {args.repeat} run(s), {args.deliver_workers} hub deliver process(es)")
    print("| configuration | deliveries | deliveries/s | vs unordered |\n|---|---:|---:|---:|")
    for name, (events, _, _) in configurations(args).items():
        print(f"| {name} | {events:,} | {medians[name]:,.0f} | {medians[name] / unordered:.2f} |")
    per_delivery = 1000 / one_key if one_key else float("nan")
    print(f"\n1 key: {one_key:,.1f} deliveries/s = one every {per_delivery:.1f} ms; the receiver's round trip "
          f"p50 {trip:.2f} ms (at most {1000 / trip:,.0f}/s one at a time); the rest, "
          f"{per_delivery - trip:.1f} ms a delivery, is the claim, the settle that hands the key on and the "
          f"next claim")


def parse(argv: list[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("--deliveries", type=int, default=30_000, help="events of the K-key runs (default 30,000)")
    parser.add_argument("--keys", type=int, default=10_000, help="keys of the ordered run (default 10,000)")
    parser.add_argument("--one-key-deliveries", type=int, default=400, help="events of the 1-key run (default 400)")
    parser.add_argument("--deliver-workers", type=int, default=1, help="hub deliver processes (default 1)")
    parser.add_argument("--repeat", type=int, default=3, help="runs of each configuration (default 3)")
    parser.add_argument("--quick", action="store_true", help="one repeat, 10,000 deliveries, 200 for 1 key")
    args = parser.parse_args(argv)
    if args.quick:
        args.repeat, args.deliveries, args.one_key_deliveries = 1, 10_000, 200
    return args


def main(argv: list[str] | None = None) -> int:
    args = parse(argv)
    ensure_tools()
    print(f"ordered bench: {args.deliveries:,} deliveries over {args.keys:,} keys, unordered vs ordered; "
          f"{args.one_key_deliveries:,} of one key; {args.repeat} repeat(s)", flush=True)
    rates, round_trips = measure(args)
    report(rates, round_trips, args)
    return 0


if __name__ == "__main__":
    sys.exit(main())

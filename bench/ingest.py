"""Ingest throughput and latency: real ``hub ingest`` workers against the real broker and database.

Everything runs on a scratch database (created, migrated, dropped) and on fresh uniquely named
topics (6 partitions) and consumer groups, deleted afterwards. Events are binary-mode CloudEvents
(``ce_*`` headers, ~320 bytes of JSON data, the account id as key) for 4 tenants, each tenant with
K matching webhook subscriptions, so every event fans out to K delivery jobs (K = 1 and 10).

Scenarios, each timed by a poller that reads the event log every 20 ms and notes when each
record became readable (its batch's transaction committed):

* **drain**: the workers have joined the group and are stopped (SIGSTOP) while N events are
  produced, then resumed. ev/s = events stored after
  the first committed batch / (last commit - first commit): the worker's sustained capacity,
  with the CPUs shared only with PostgreSQL and the broker.
* **live**: the worker is running and one producer sends N events as fast as it can on the same
  2 cores. ev/s = N / (last commit - first produce). p50/p99 = produce (the record's Kafka
  CreateTime) → committed; the producer outruns the worker, so this latency includes time
  queued in Kafka and grows with N.
* **paced**: one producer sends N events at a fixed rate (``--rate``, below capacity).
  p50/p99 = produce → committed at that load: the latency a subscriber sees in steady state.

Ceilings, measured in the same run on the same machine: a bare confluent-kafka consumer reading
the drain topic (no decoding, no database; same first-batch rule as drain) and a bare ``COPY`` of
the same N decoded events into a scratch copy of ``event_log`` (same columns and indexes, the
worker's own binary COPY), one transaction; and **bare COPY + K jobs/event**, the same COPY plus K
``delivery_jobs`` rows per event into a scratch copy of that table (its columns and indexes, not its
rollup triggers; the worker's own job rows), for the largest K: the write ceiling of one job row per
delivery on this machine, with no decoding, matching or Kafka. An ingest figure above it is impossible.

With ``--filtered`` each scenario runs a second time with every subscription carrying a payload
filter (``MATCHING_FILTERS`` in ``bench/_ingest_setup.py``, docs/contract-notes.md N53) that every
event passes: the same jobs are written, so the difference is the cost of evaluating them.

Each scenario is repeated (``--repeat``, default 3); the table shows medians and each row's ratio
to both ceilings. Wall-clock figures on a shared 2-core machine are noisy: read the individual
runs printed above the table.

Run: ``python bench/ingest.py`` (``--quick``: 2,000 events, one repetition; ``--help``).
"""

from __future__ import annotations

import argparse
import math
import os
import signal
import statistics
import sys
import time
import uuid
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

import psycopg  # noqa: E402

from bench._ingest_setup import (  # noqa: E402
    PARTITIONS, TENANTS, Producer, Record, Scratch, Visibility, build_records, delete_kafka, new_topic, retenant,
)
from bench._ingest_ceilings import Run, after_first_batch, bare_consumer, bare_copy  # noqa: E402
from bench._processes import ingest_workers  # noqa: E402

MODES = ("drain", "live", "paced")


@dataclass
class Plan:
    mode: str
    subs: int
    workers: int
    rate: float = 0.0
    profile: str = ""
    keep_topic: bool = False
    filtered: bool = False


def percentile(ordered: list[float], pct: float) -> float:
    index = min(len(ordered) - 1, max(0, round(pct / 100 * len(ordered) + 0.5) - 1))
    return ordered[index]


# -- one measurement -------------------------------------------------------------------------------
def wait_for_warm_up(dsn: str, tenant: str, workers: int, procs: list) -> None:
    """One record per partition stored: the workers joined the group and own the partitions."""
    deadline = time.monotonic() + 120
    with psycopg.connect(dsn, autocommit=True) as conn:
        while conn.execute("SELECT count(*) FROM event_log WHERE tenant_id = %s", (tenant,)).fetchone()[0] < PARTITIONS:
            if time.monotonic() > deadline or any(proc.poll() is not None for proc in procs):
                raise RuntimeError("the ingest workers did not start consuming")
            time.sleep(0.05)
        if workers > 1:  # let the group settle with every member before timing
            while conn.execute("SELECT count(*) FROM ingest_worker_heartbeats").fetchone()[0] < workers:
                if time.monotonic() > deadline:
                    raise RuntimeError("not every worker joined")
                time.sleep(0.2)
            time.sleep(6)


def measure(scratch: Scratch, records: list[Record], plan: Plan) -> tuple[Run, str]:
    """One scenario run; returns it and its topic (kept for the bare consumer when asked)."""
    tag = uuid.uuid4().hex[:10]
    prefix, group = f"bench{tag}.", f"bench-ingest-{tag}"
    tenants = [f"bench-{tag}-{i}" for i in range(TENANTS)]
    warm_tenant = f"bench-{tag}-warm"
    scratch.reset(tenants, plan.subs, plan.filtered)
    retenant(records, tenants)
    topic = new_topic(prefix)
    producer = Producer()
    warm = build_records(PARTITIONS, [warm_tenant], seed=1)
    for i, record in enumerate(warm):
        record.partition = i
    producer.send(topic, warm)
    poller = Visibility(scratch.dsn, tenants)
    poller.start()
    try:
        with ingest_workers(scratch, prefix, group, plan.workers, plan.profile) as procs:
            wait_for_warm_up(scratch.dsn, warm_tenant, plan.workers, procs)
            started = time.time() * 1000
            if plan.mode == "drain":
                backlog(procs, producer, topic, records)
            else:
                producer.send(topic, records, rate=plan.rate if plan.mode == "paced" else 0.0)
            last = poller.wait(len(records), max(120, len(records) / 200), procs)
        check_jobs(scratch.dsn, tenants, len(records) * plan.subs)
        return summarize(plan, poller, producer, started, last), topic
    finally:
        poller.stop()
        delete_kafka([f"{prefix}dlq"] + ([] if plan.keep_topic else [topic]), [group])


def backlog(procs: list, producer: Producer, topic: str, records: list[Record]) -> None:
    """Produce every record while the workers, already in the group, are stopped; then resume them.

    A second or so of SIGSTOP is well inside the session timeout, so no rebalance happens.
    """
    for proc in procs:
        os.kill(proc.pid, signal.SIGSTOP)
    try:
        producer.send(topic, records)
    finally:
        for proc in procs:
            os.kill(proc.pid, signal.SIGCONT)


def check_jobs(dsn: str, tenants: list[str], expected: int) -> None:
    with psycopg.connect(dsn) as conn:
        jobs = conn.execute("SELECT count(*) FROM delivery_jobs WHERE tenant_id = ANY(%s)", (tenants,)).fetchone()[0]
    if jobs != expected:
        raise RuntimeError(f"{jobs} delivery jobs stored, expected {expected}")


def summarize(plan: Plan, poller: Visibility, producer: Producer, started: float, last: float) -> Run:
    seen = poller.seen
    if plan.mode == "drain":
        return Run(after_first_batch(list(seen.values())))
    latencies = sorted(moment - producer.created_ms[key] for key, moment in seen.items())
    return Run(len(seen) / ((last - started) / 1000), percentile(latencies, 50), percentile(latencies, 99))


# -- ceilings -----------------------------------------------------------------------------------------
# -- report -------------------------------------------------------------------------------------------
def median(values: list[float | None]) -> float | None:
    present = [value for value in values if value is not None and not math.isnan(value)]
    return statistics.median(present) if present else None


def fmt(value: float | None, digits: int = 1) -> str:
    return "-" if value is None or math.isnan(value) else f"{value:,.{digits}f}"


def print_table(results: dict[str, list[Run]], repeat: int, events: int, jobs_ceiling: str) -> None:
    consumer_rate = median([run.rate for run in results["bare consumer"]])
    copy_rate = median([run.rate for run in results["bare COPY"]])
    jobs_rate = median([run.rate for run in results[jobs_ceiling]])
    header = (f"| {'scenario':<30} | {'median ev/s':>11} | {'p50 ms':>8} | {'p99 ms':>8} | "
              f"{'vs bare consumer':>16} | {'vs bare COPY':>12} | {'vs COPY + jobs':>14} |")
    print(f"\nmedians of {repeat} run(s), {events:,} events each:")
    print(header)
    print("|" + "|".join("-" * len(cell) for cell in header.split("|")[1:-1]) + "|")
    for name, runs in results.items():
        rate = median([run.rate for run in runs])
        print(f"| {name:<30} | {fmt(rate, 0):>11} | {fmt(median([r.p50 for r in runs])):>8} | "
              f"{fmt(median([r.p99 for r in runs])):>8} | {fmt(ratio(rate, consumer_rate), 3):>16} | "
              f"{fmt(ratio(rate, copy_rate), 3):>12} | {fmt(ratio(rate, jobs_rate), 3):>14} |")


def ratio(rate: float | None, ceiling: float | None) -> float | None:
    return None if rate is None or not ceiling else rate / ceiling


def plans(args: argparse.Namespace) -> list[tuple[str, Plan]]:
    modes = [mode for mode in args.modes.split(",") if mode]
    fan_outs = [int(item) for item in args.subs.split(",") if item.strip()]
    chosen = []
    for mode in modes:
        for k in fan_outs if mode != "paced" else fan_outs[:1]:
            label = f"{mode}, {k} sub{'s' if k != 1 else ''}/event"
            if mode == "paced":
                label += f" @ {args.rate:,}/s"
            chosen.append((label, Plan(mode, k, args.workers, float(args.rate), args.profile)))
            if args.filtered:
                filtered = label.replace(" sub", " filtered sub", 1)
                chosen.append((filtered, Plan(mode, k, args.workers, float(args.rate), args.profile, filtered=True)))
    return chosen


def parse(argv: list[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("--events", type=int, default=20_000, help="events per measurement")
    parser.add_argument("--repeat", type=int, default=3, help="repetitions of each measurement")
    parser.add_argument("--workers", type=int, default=1, help="hub ingest processes (up to 6)")
    parser.add_argument("--subs", default="1,10", help="matching push subscriptions per event, comma separated")
    parser.add_argument("--modes", default=",".join(MODES), help="drain, live, paced (comma separated)")
    parser.add_argument("--rate", type=int, default=5_000, help="offered events/s of the paced scenario")
    parser.add_argument("--quick", action="store_true", help="2,000 events, one repetition")
    parser.add_argument("--filtered", action="store_true",
                        help="each scenario also with every subscription carrying a payload filter the events pass")
    parser.add_argument("--profile", default="", metavar="DIR",
                        help="run the workers under cProfile, writing one .prof file per worker run into DIR")
    args = parser.parse_args(argv)
    if args.quick:
        args.events, args.repeat = 2_000, 1
    if any(mode not in MODES for mode in args.modes.split(",") if mode):
        parser.error(f"--modes takes {', '.join(MODES)}")
    return args


def main(argv: list[str] | None = None) -> int:
    args = parse(argv)
    chosen = plans(args)
    print(f"ingest bench: {args.events:,} events x {args.repeat} repetitions, {args.workers} worker process(es), "
          f"{PARTITIONS} partitions, {TENANTS} tenants, binary-mode CloudEvents", flush=True)
    records = build_records(args.events, [f"t{i}" for i in range(TENANTS)])
    print(f"record size: ~{statistics.mean(len(r.value) for r in records):.0f} bytes of data, "
          f"~{statistics.mean(sum(len(k) + len(v) for k, v in r.headers) for r in records):.0f} bytes of headers",
          flush=True)
    most = max(plan.subs for _, plan in chosen)
    jobs_ceiling = f"bare COPY + {most} jobs/event"
    results: dict[str, list[Run]] = {"bare consumer": [], "bare COPY": [], jobs_ceiling: [],
                                     **{label: [] for label, _ in chosen}}
    with Scratch() as scratch:
        for rep in range(1, args.repeat + 1):
            for i, (label, plan) in enumerate(chosen):
                plan.keep_topic = i == 0
                run, topic = measure(scratch, records, plan)
                results[label].append(run)
                print(f"  run {rep}: {label:<30} {fmt(run.rate, 0):>10} ev/s  p50 {fmt(run.p50):>8} ms  "
                      f"p99 {fmt(run.p99):>8} ms", flush=True)
                if plan.keep_topic:
                    try:
                        results["bare consumer"].append(bare_consumer(topic, args.events + PARTITIONS))
                    finally:
                        delete_kafka([topic], [])
            results["bare COPY"].append(bare_copy(scratch, records))
            results[jobs_ceiling].append(bare_copy(scratch, records, most))
            print(f"  run {rep}: bare consumer {fmt(results['bare consumer'][-1].rate, 0)} ev/s, "
                  f"bare COPY {fmt(results['bare COPY'][-1].rate, 0)} ev/s, "
                  f"{jobs_ceiling} {fmt(results[jobs_ceiling][-1].rate, 0)} ev/s", flush=True)
    print_table(results, args.repeat, args.events, jobs_ceiling)
    return 0


if __name__ == "__main__":
    sys.exit(main())

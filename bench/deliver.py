"""Webhook delivery: real ``hub deliver`` workers pushing signed webhooks to a real, fast HTTPS receiver.

**Receiver.** nginx from Debian's packages (installed by ``deploy/local/tools.sh`` when missing),
started by this script on a free loopback port with a trustme certificate, one worker process,
answering ``200`` at once to any request and logging each request's ``$msec`` and ``webhook-id``.
The body is a structured-mode CloudEvent as the hub sends it (~550 bytes: the ingest bench's event).

Figures (each printed as the median of ``--repeat`` runs, every run shown above the table):

* **ceiling**: ``wrk`` POSTing the same body and headers straight at nginx (``--wrk-threads``
  threads, ``--wrk-connections`` keep-alive connections, ``--seconds`` long). req/s, and wrk's own
  p50/p99 request latency. RSS: nginx's worker. This is what the receiver and the machine can take.
* **baseline**: the naive client, in its own process: one synchronous request at a time over one
  keep-alive httpx connection, each signed anew with ``standardwebhooks``, for ``--seconds``.
  req/s, p50/p99 of one request's round trip, the process's peak RSS.
* **hub, K subs/event** (K = 1 and 10): deliveries/s on a backlog. ``hub ingest`` (one process)
  and ``--deliver-workers`` ``hub deliver`` processes run on a scratch database with 4 tenants,
  each with K active webhook subscriptions pointing at nginx. After a warm-up (one event per
  partition delivered end to end), the deliver workers are stopped (SIGSTOP) while
  ``--deliveries`` / K events are produced and ingested into ``--deliveries`` jobs, then resumed.
  deliveries/s = (distinct webhook-ids received - 1) / (last receipt - first receipt).
* **hub, latency @ R/s**: with every process running and 1 subscription per event, one producer
  sends ``--rate`` events/s (default 500) for ``--latency-seconds``. p50/p99 = Kafka CreateTime of
  the event -> nginx's receipt time of its delivery (the ``webhook-id`` is the ``delivery_jobs``
  id, joined to the event through the database). Includes ingestion.
* **RSS**: the peak resident set (VmHWM) of each ``hub deliver`` process at the end of each hub
  run; the table shows the largest.

Ratios: each rate divided by the ceiling's and by the baseline's rate; each latency divided by the
ceiling's and the baseline's same percentile. The hub part needs ``hub deliver``: while it is the
stub that exits 2, the script prints the ceiling and baseline and says that the hub part was skipped.
The hub's processes get ``HUB_EGRESS_ALLOW_CIDRS=127.0.0.0/8`` and ``HUB_WEBHOOK_CA_BUNDLE`` (nginx's CA);
every other ``HUB_*`` setting passes through from the environment. All subscriptions point at the
one nginx, so the hub's per-destination-host limit applies to all of them together.

Wall-clock figures on a shared 2-core machine (the receiver, wrk or the hub, Kafka and PostgreSQL
all share it) are noisy: compare runs made back to back.

**Queue kinds** (``--kinds``, comma-separated, default ``webhook``; ``--kinds rabbitmq,sqs,eventbridge`` or
``all``): the same Kafka → ``hub ingest`` → ``hub deliver`` path to RabbitMQ, SQS (moto) and EventBridge
(moto), 1 and 10 subscriptions per event, jobs delivered/s beside a bare pika / boto3 loop to the same
destination in the same run (``bench/_deliver_queues.py``; ``--rabbit-deliveries``, ``--sqs-deliveries``, ``--eventbridge-deliveries``).

Run: ``python bench/deliver.py`` (``--quick``: one short run of each; ``--help``).
"""

from __future__ import annotations

import argparse
import statistics
import sys
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from bench._deliver_hub import HubRun, delete_prefixed, hub_env, latency, probe_deliver, throughput  # noqa: E402
from bench._ingest_setup import Scratch  # noqa: E402
from bench._receiver import Figures, Nginx, baseline_process, ensure_tools, event_body, wrk_ceiling  # noqa: E402


@dataclass
class Row:
    """One line of the table: a figure's runs."""

    name: str
    rates: list[float | None]
    p50s: list[float | None]
    p99s: list[float | None]
    rss: list[float | None]


def median(values: list[float | None]) -> float | None:
    present = [value for value in values if value is not None]
    return statistics.median(present) if present else None


def fmt(value: float | None, digits: int = 1) -> str:
    return "-" if value is None else f"{value:,.{digits}f}"


def ratio(value: float | None, reference: float | None) -> str:
    return "-" if value is None or not reference else f"{value / reference:.3f}"


def print_table(rows: list[Row], repeat: int) -> None:
    ceiling, base = rows[0], rows[1]
    refs = {"rate": (median(ceiling.rates), median(base.rates)), "p50": (median(ceiling.p50s), median(base.p50s)),
            "p99": (median(ceiling.p99s), median(base.p99s))}
    print(f"\nmedians of {repeat} run(s); ratios are figure / ceiling's and figure / baseline's")
    print("| figure | req/s | vs ceiling | vs baseline | p50 ms | p99 ms | p99 vs ceiling | p99 vs baseline "
          "| peak RSS MB |")
    print("|---|---:|---:|---:|---:|---:|---:|---:|---:|")
    for row in rows:
        rate, p50, p99 = median(row.rates), median(row.p50s), median(row.p99s)
        rss = max((value for value in row.rss if value is not None), default=None)
        print(f"| {row.name} | {fmt(rate, 0)} | {ratio(rate, refs['rate'][0])} | {ratio(rate, refs['rate'][1])} | "
              f"{fmt(p50, 2)} | {fmt(p99, 2)} | {ratio(p99, refs['p99'][0])} | {ratio(p99, refs['p99'][1])} | "
              f"{fmt(rss)} |")


def receiver_rows(nginx: Nginx, body: bytes, args: argparse.Namespace) -> list[Row]:
    """The ceiling and the baseline, ``--repeat`` runs each."""
    ceiling = Row(f"ceiling: wrk -t{args.wrk_threads} -c{args.wrk_connections} -> nginx", [], [], [], [])
    base = Row("baseline: 1 synchronous signed request at a time", [], [], [], [])
    for run in range(1, args.repeat + 1):
        for row, figures in ((ceiling, wrk_ceiling(nginx, body, seconds=args.seconds,
                                                   connections=args.wrk_connections, threads=args.wrk_threads)),
                             (base, baseline_process(nginx, body, args.seconds))):
            add(row, figures.rate, figures.p50, figures.p99, [figures.rss_mb])
            show(run, row, figures)
    return [ceiling, base]


def add(row: Row, rate: float | None, p50: float | None, p99: float | None, rss: list[float | None]) -> None:
    row.rates.append(rate)
    row.p50s.append(p50)
    row.p99s.append(p99)
    row.rss.extend(rss)


def show(run: int, row: Row, figures: Figures | HubRun) -> None:
    rss = figures.rss_mb if isinstance(figures.rss_mb, list) else [figures.rss_mb]
    print(f"  run {run}: {row.name:<52} {fmt(figures.rate, 0):>9} req/s  p50 {fmt(figures.p50, 2):>8} ms  "
          f"p99 {fmt(figures.p99, 2):>8} ms  peak RSS {', '.join(fmt(v) for v in rss)} MB", flush=True)


def hub_rows(nginx: Nginx, args: argparse.Namespace) -> list[Row]:
    """The hub's figures, or none (with the reason printed) when ``hub deliver`` cannot run."""
    with Scratch() as scratch:
        env = hub_env(scratch, nginx, f"benchprobe{id(scratch):x}.", f"bench-probe-{id(scratch):x}")
        try:
            real, why = probe_deliver(env)
        finally:
            delete_prefixed(env["HUB_KAFKA_TOPIC_PREFIX"], [env["HUB_KAFKA_CONSUMER_GROUP"]])
        if not real:
            print(f"\nhub part SKIPPED: {why}. Ceiling and baseline only.", flush=True)
            return []
        rows = [Row(f"hub: {k} sub{'s' if k != 1 else ''}/event, {args.deliver_workers} deliver procs",
                    [], [], [], []) for k in (1, 10)]
        late = Row(f"hub: latency @ {args.rate:,}/s, 1 sub/event", [], [], [], [])
        for run in range(1, args.repeat + 1):
            for row, k in zip(rows, (1, 10)):
                result = throughput(scratch, nginx, k, args.deliveries, args.deliver_workers)
                add(row, result.rate, None, None, list(result.rss_mb))
                show(run, row, result)
            result = latency(scratch, nginx, args.rate, args.latency_seconds, args.deliver_workers)
            add(late, None, result.p50, result.p99, list(result.rss_mb))
            show(run, late, result)
        return [*rows, late]


def parse(argv: list[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("--repeat", type=int, default=3, help="runs of each figure (default 3)")
    parser.add_argument("--seconds", type=int, default=5, help="length of each ceiling and baseline run")
    parser.add_argument("--wrk-threads", type=int, default=2, help="wrk threads (default 2)")
    parser.add_argument("--wrk-connections", type=int, default=64, help="wrk connections (default 64)")
    parser.add_argument("--deliveries", type=int, default=20_000, help="deliveries per throughput run")
    parser.add_argument("--deliver-workers", type=int, default=2, help="hub deliver processes (default 2)")
    parser.add_argument("--rate", type=int, default=500, help="offered events/s of the latency run")
    parser.add_argument("--latency-seconds", type=int, default=20, help="length of the latency run")
    parser.add_argument("--skip-hub", action="store_true", help="measure the ceiling and the baseline only")
    parser.add_argument("--quick", action="store_true", help="one run of each, 3 s, 3,000 deliveries, 10 s")
    add_queue_options(parser)
    args = parser.parse_args(argv)
    if args.quick:
        args.repeat, args.seconds, args.deliveries, args.latency_seconds = 1, 3, 3_000, 10
    return args


def main(argv: list[str] | None = None) -> int:
    args = parse(argv)
    if "webhook" not in args.kinds.split(","):
        return queue_main(args)
    ensure_tools()
    body = event_body()
    print(f"deliver bench: body {len(body)} bytes (structured CloudEvent), {args.repeat} run(s) of each figure",
          flush=True)
    with Nginx() as nginx:
        rows = receiver_rows(nginx, body, args)
        if not args.skip_hub:
            rows += hub_rows(nginx, args)
    print_table(rows, args.repeat)
    return queue_main(args)


ALL_KINDS = "webhook,rabbitmq,sqs,eventbridge"


def add_queue_options(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--kinds", default="webhook", type=lambda text: ALL_KINDS if text == "all" else text, help="webhook, rabbitmq, sqs, eventbridge (comma-separated) "
                                                          "or all; default webhook")
    parser.add_argument("--rabbit-deliveries", type=int, default=5_000, help="deliveries per RabbitMQ run")
    parser.add_argument("--sqs-deliveries", type=int, default=300, help="deliveries per SQS run (moto's SQS is slow)")
    parser.add_argument("--eventbridge-deliveries", type=int, default=3_000, help="deliveries per EventBridge run")
    parser.add_argument("--threads", type=int, default=16, help="threads of the bare boto3 loop (the sinks' pool)")


def queue_main(args: argparse.Namespace) -> int:
    """The queue kinds' table, when ``--kinds`` names any."""
    from bench._deliver_queues import QUEUE_KINDS, print_queue_table, queue_rows

    if any(kind in QUEUE_KINDS for kind in args.kinds.split(",")):
        print_queue_table(queue_rows(args), args.repeat, args.deliver_workers)
    return 0


if __name__ == "__main__":
    sys.exit(main())

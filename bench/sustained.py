"""Sustained end-to-end delivery: events arriving all the time, ingest and delivery sharing the machine.

**Setup.** The hub runs the way ``make dev`` runs it: ``hub dev`` with its default process counts
(the API, the sweep, the DLQ observer, ``hub ingest`` and ``hub deliver`` processes), on a scratch
database (4 tenants, K active webhook subscriptions each) and a fresh 6-partition topic. The receiver
is one HTTPS nginx on loopback answering ``200`` (bench/_receiver.py, a trustme certificate), which
logs each request's ``$msec`` and ``webhook-id``. One producer (this process) sends binary CloudEvents
at a steady rate of R / K events/s, R the offered deliveries/s, for ``--duration`` seconds.

**Per run** (a fresh ``hub dev``, topic and tenants each time; K = 1 and 10, each ``--rates`` R):

* delivered/s: distinct deliveries received at nginx from ``--window-start`` to ``--window-end``
  seconds after the first event was produced (default 10 s to 43 s of a 45 s run);
* backlog: deliveries offered but not yet received when the producer stopped (events still in Kafka
  and jobs still due, together);
* drain/s: deliveries received after the producer stopped / (last receipt - stop), when the backlog
  was at least 5,000: how fast the burst's backlog drains once it ends;
* p50/p99 ms: the event's Kafka CreateTime -> nginx's receipt, for (a sample of) the window's receipts;
* CPU: cores each process (group) used over the window (1.00 = one core), and ms of CPU per delivery
  of ``hub deliver``, ``hub ingest``, PostgreSQL and Kafka (each run's line gives every group's).
  ``postgres``, ``kafka`` and ``machine`` include other users of the machine;
* PostgreSQL per delivery, over the same window (bench/_pg_costs.py: deltas of its statistics views,
  nothing reset): top-level statements and the server's time executing them (waits included), rows
  written (inserted + updated + deleted) in the bench's database, row versions (inserted + updated) and
  of those HOT updates, and WAL bytes (the whole server's). All per delivery received in the window: past capacity, ingest runs ahead of delivery, so
  its writes for events not yet delivered count too. Kafka's fetch and produce requests are not measured
  (the broker has no JMX port, and the hub's clients do not emit librdkafka statistics). Each run's
  lines also name the tables written most and the statements that took longest, per delivery.

**References, in the same run:** ``wrk`` at the nginx (the receiver's ceiling), a bare
confluent-kafka consume of a topic of the same events (Kafka's), the paused-drain figure of
bench/deliver.py (``hub ingest`` and one ``hub deliver``, the deliver process stopped while the backlog
is written, then released; ``--drain-deliveries 0`` skips it), and the peer's sustained figures (Hookdeck
Outpost on this machine, measured the same way, given as constants: it cannot run here). Every
configuration runs once per repeat, interleaved; the table shows medians of ``--repeat`` runs.

Wall-clock figures on a shared 2-core machine are noisy: compare runs made back to back, read ratios.

Run: ``python bench/sustained.py`` (``--quick``: one repeat of 20 s runs at 3 rates; ``--help``).
"""

from __future__ import annotations

import argparse
import statistics
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from bench._deliver_hub import format_stages, throughput  # noqa: E402
from bench._ingest_setup import Producer, Scratch, build_records, delete_kafka, new_topic  # noqa: E402
from bench._receiver import Nginx, ensure_tools, event_body, wrk_ceiling  # noqa: E402
from bench._sustained_run import Outcome, Plan, Timing, Variant, run_once  # noqa: E402
from bench._ingest_ceilings import bare_consumer  # noqa: E402
from bench._pg_costs import FIGURES as PG_FIGURES  # noqa: E402

# Hookdeck Outpost on this machine, measured the same way (publish API at full rate, receipts at nginx).
PEER_SUSTAINED = {1: 1_860.0, 10: 2_120.0}  # the upper end of its measured ranges (1,396-1,860; 2,021-2,120)
CPU_COLUMNS = ("ingest", "deliver", "api", "kafka", "postgres", "nginx", "producer", "machine")
PER_DELIVERY_CPU = ("deliver", "ingest", "postgres", "kafka")  # the table's "<group> ms CPU/delivery" columns
PG_DIGITS = {"WAL bytes": 0, "statement ms": 3}  # digits of each PostgreSQL figure per delivery (default 2)


def median(values: list[float | None]) -> float | None:
    present = [value for value in values if value is not None]
    return statistics.median(present) if present else None


def fmt(value: float | None, digits: int = 0) -> str:
    return "-" if value is None else f"{value:,.{digits}f}"


def ratio(value: float | None, reference: float | None) -> str:
    return "-" if value is None or not reference else f"{value / reference:.2f}"


def kafka_ceiling(events: int) -> float | None:
    """A bare confluent-kafka consumer reading EVENTS bench events: Kafka's consume rate here (events/s)."""
    topic = new_topic(f"benchs{id(events):x}.")
    try:
        Producer().send(topic, build_records(events, ["bench-tenant"], seed=3))
        return bare_consumer(topic, events).rate
    finally:
        delete_kafka([topic], [])


def show(run: int, outcome: Outcome) -> None:
    plan = outcome.plan
    cpu = " ".join(f"{name} {outcome.cpu.get(name, 0):.2f}" for name in CPU_COLUMNS)
    print(f"  run {run}: {plan.variant.name}, {plan.subs:>2} subs @ {plan.rate:>6,}/s: "
          f"offered {outcome.offered:7,.0f} delivered {outcome.delivered:7,.0f}/s "
          f"backlog {outcome.backlog:>8,} ({outcome.in_kafka:,} in Kafka) drain {fmt(outcome.drain):>6}/s "
          f"p50 {fmt(outcome.p50)} p99 {fmt(outcome.p99)} ms | cores: {cpu}", flush=True)
    ms = " ".join(f"{name} {fmt(outcome.cpu_ms_per_delivery(name), 3)}" for name in CPU_COLUMNS)
    pg = " ".join(f"{name} {fmt(value, PG_DIGITS.get(name, 2))}" for name, value in outcome.pg_per_delivery().items())
    print(f"    ms CPU/delivery: {ms} | postgres per delivery: {pg}", flush=True)
    work, n = outcome.pg, max(outcome.deliveries_in_window, 1)
    if work is not None:
        tables = ", ".join(f"{name} {rows / n:.2f}" for name, rows in work.top_tables)
        print(f"    postgres rows written/delivery by table: {tables}", flush=True)
        for text, calls, spent in work.top_statements:
            print(f"    postgres statement: {spent / n:.3f} ms/delivery, {calls / n:.3f} calls/delivery: {text}",
                  flush=True)
    if outcome.stages:
        print(f"    stages p50/p99 ms: {format_stages(outcome.stages)}", flush=True)


HEADER = ("variant", "subs/event", "offered/s", "delivered/s", "vs peer", "vs drain", "vs wrk", "backlog at stop",
          "of it in Kafka", "drain/s", "p50 ms", "p99 ms", *(f"{name} cores" for name in CPU_COLUMNS),
          *(f"{name} ms CPU/delivery" for name in PER_DELIVERY_CPU), *(f"{name}/delivery" for name in PG_FIGURES))


def plan_row(plan: Plan, outcomes: list[Outcome], refs: dict[str, list[float | None]]) -> list[str]:
    """One line of the table: medians of the plan's runs, and its ratios."""
    def mid(values: list[float | None], digits: int = 0) -> str:
        return fmt(median(values), digits)

    delivered = median([o.delivered for o in outcomes])
    drain_ref = median(refs.get(f"drain: bench/deliver.py, {plan.subs} subs/event", []))
    wrk = median(refs["ceiling: wrk -> nginx"])
    return [plan.variant.name, str(plan.subs), f"{plan.rate:,}", fmt(delivered),
            ratio(delivered, PEER_SUSTAINED.get(plan.subs)), ratio(delivered, drain_ref), ratio(delivered, wrk),
            mid([o.backlog for o in outcomes]), mid([o.in_kafka for o in outcomes]), mid([o.drain for o in outcomes]),
            mid([o.p50 for o in outcomes]), mid([o.p99 for o in outcomes]),
            *(mid([o.cpu.get(name) for o in outcomes], 2) for name in CPU_COLUMNS),
            *(mid([o.cpu_ms_per_delivery(name) for o in outcomes], 3) for name in PER_DELIVERY_CPU),
            *(mid([o.pg_per_delivery()[name] for o in outcomes], PG_DIGITS.get(name, 2)) for name in PG_FIGURES)]


def print_tables(refs: dict[str, list[float | None]], runs: dict[Plan, list[Outcome]], repeat: int) -> None:
    print(f"\nmedians of {repeat} run(s)")
    print("| reference | rate/s |\n|---|---:|")
    for name, values in refs.items():
        print(f"| {name} | {fmt(median(values))} |")
    for subs, peer in PEER_SUSTAINED.items():
        print(f"| peer (Outpost) sustained, {subs} sub{'s' if subs > 1 else ''}/event (given) | {fmt(peer)} |")
    print("\n| " + " | ".join(HEADER) + " |")
    print("|---|" + "---:|" * (len(HEADER) - 1))
    for plan, outcomes in runs.items():
        print("| " + " | ".join(plan_row(plan, outcomes, refs)) + " |")


def measure(args: argparse.Namespace) -> tuple[dict[str, list[float | None]], dict[Plan, list[Outcome]]]:
    timing = Timing(args.duration, args.window_start, args.window_end, args.drain_timeout, args.py_spy)
    # Interleaved: the variants alternate innermost, then K, then the rate.
    plans = [Plan(subs, rate, variant) for rate in args.rates for subs in args.subs for variant in args.variants]
    refs: dict[str, list[float | None]] = {"ceiling: wrk -> nginx": [], "ceiling: bare Kafka consume (events/s)": []}
    runs: dict[Plan, list[Outcome]] = {plan: [] for plan in plans}
    with Nginx() as nginx, Scratch() as scratch:
        for run in range(1, args.repeat + 1):
            refs["ceiling: wrk -> nginx"].append(
                wrk_ceiling(nginx, event_body(), seconds=5, connections=64, threads=2).rate)
            refs["ceiling: bare Kafka consume (events/s)"].append(kafka_ceiling(args.kafka_events))
            print(f"  run {run}: wrk {fmt(refs['ceiling: wrk -> nginx'][-1])}/s, bare Kafka consume "
                  f"{fmt(refs['ceiling: bare Kafka consume (events/s)'][-1])} events/s", flush=True)
            for subs in args.subs if args.drain_deliveries else ():
                result = throughput(scratch, nginx, subs, args.drain_deliveries, 1)
                refs.setdefault(f"drain: bench/deliver.py, {subs} subs/event", []).append(result.rate)
                print(f"  run {run}: drain, {subs} subs/event: {fmt(result.rate)}/s", flush=True)
            for plan in plans:
                outcome = run_once(scratch, nginx, plan, timing)
                runs[plan].append(outcome)
                show(run, outcome)
    return refs, runs


def parse(argv: list[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("--rates", type=lambda text: [int(v) for v in text.split(",")],
                        default=[1_000, 2_000, 4_000, 6_000], help="offered deliveries/s, comma-separated")
    parser.add_argument("--subs", type=lambda text: [int(v) for v in text.split(",")], default=[1, 10],
                        help="subscriptions per event, comma-separated (default 1,10)")
    parser.add_argument("--variant", dest="variants", action="append", type=Variant.parse, default=[],
                        help="a way to run hub dev, compared interleaved: NAME:ingest=N,deliver=N,HUB_X=Y "
                             "(repeatable; default: hub dev's defaults)")
    parser.add_argument("--repeat", type=int, default=3, help="runs of each configuration (default 3)")
    parser.add_argument("--duration", type=float, default=45.0, help="seconds of load per run (default 45)")
    parser.add_argument("--window-start", type=float, default=10.0, help="steady window start, s (default 10)")
    parser.add_argument("--window-end", type=float, default=43.0, help="steady window end, s (default 43)")
    parser.add_argument("--drain-timeout", type=float, default=300.0, help="longest wait for the backlog, s")
    parser.add_argument("--drain-deliveries", type=int, default=20_000,
                        help="deliveries of the paused-drain reference (0: skip it)")
    parser.add_argument("--kafka-events", type=int, default=100_000, help="events of the bare Kafka consume")
    parser.add_argument("--py-spy", default="", metavar="DIR",
                        help="write py-spy profiles (collapsed stacks) of ingest and deliver over each window and "
                             "the first 10 s of each drain into DIR")
    parser.add_argument("--quick", action="store_true", help="one repeat of 20 s runs (window 5-18 s), 3 rates")
    args = parser.parse_args(argv)
    args.variants = args.variants or [Variant()]
    if args.quick:
        args.repeat, args.duration, args.window_start, args.window_end = 1, 20.0, 5.0, 18.0
        args.rates, args.drain_deliveries, args.kafka_events = [1_000, 2_000, 6_000], 10_000, 30_000
    if not 0 <= args.window_start < args.window_end <= args.duration:
        parser.error("the window must lie inside the run")
    return args


def main(argv: list[str] | None = None) -> int:
    args = parse(argv)
    ensure_tools()
    print(f"sustained bench: hub dev defaults, rates {args.rates} deliveries/s, subs {args.subs}, "
          f"{args.duration:.0f} s runs, window {args.window_start:.0f}-{args.window_end:.0f} s, "
          f"{args.repeat} repeat(s)", flush=True)
    refs, runs = measure(args)
    print_tables(refs, runs, args.repeat)
    return 0


if __name__ == "__main__":
    sys.exit(main())

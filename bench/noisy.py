"""Noisy neighbours (issue 49, N98): what one tenant's flood or hanging destination costs the others.

**Setup**: ``hub dev`` with its defaults (bench/_sustained_run.py's ``hub_dev``) on a scratch database;
webhook subscriptions at the bench's nginx (HTTPS, answers 200 at once; the flooding tenant's at an nginx
of its own, as its own receiver); each group of tenants produces
on a topic of its own. A delivery's latency is nginx's receipt minus its event's Kafka CreateTime.

**Two tenants** (one quiet subscription, one other tenant's), phases of ``--seconds`` each, in one run:

* ``alone``: the quiet tenant sends ``--quiet-rate`` events/s, nobody else;
* ``flood alone``: the other tenant produces ``--flood`` events at once, nobody else: its drain rate;
* ``flood``: both at once: the quiet tenant's p50/p99, over the phase and for its events produced after
  the whole flood was in Kafka, and the flood's drain rate beside its rate alone;
* ``hanging``: the quiet tenant, and a third tenant sending ``--hang-rate`` events/s to a destination
  that answers only after ``--hang-delay`` s.

**100 tenants, one flooding**: 99 quiet tenants at ``--many-rate`` events/s each, alone and then beside a
flood of the hundredth; every quiet tenant's p99 (the worst shown) beside the figures alone.

The issue's targets: flood p50 ≤ 2× alone and p99 ≤ 250 ms (≤ 100 ms after the flood is in Kafka);
hanging p99 ≤ 100 ms; each of the 99's p99 ≤ 250 ms; the flood drains at ≥ 0.95× its rate alone.
Wall-clock figures on a shared 2-core machine are noisy: compare the phases of one run.

Run: ``python bench/noisy.py`` (``make bench-noisy``; ``--help``).
"""

from __future__ import annotations

import argparse
import sys
import threading
import time
import uuid
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

import psycopg  # noqa: E402

from bench._deliver_hub import delete_prefixed, hub_env, reset_webhooks, wait_for  # noqa: E402
from bench._hanging import STAGES, HangingReceiver, by_tenant, p50_p99  # noqa: E402
from bench._ingest_setup import PARTITIONS, Producer, Scratch, build_records, ensure_topics  # noqa: E402
from bench._receiver import Nginx, ensure_tools  # noqa: E402
from bench._sustained_run import Variant, _wait_for_children, hub_dev  # noqa: E402


class Run:
    """One ``hub dev`` and its tenants: ``quiet`` at nginx, ``flood`` at nginx, ``hang`` at the hanging receiver."""

    def __init__(self, scratch: Scratch, nginx: Nginx, hanging: HangingReceiver, quiet: int,
                 flood_nginx: Nginx) -> None:
        tag = uuid.uuid4().hex[:8]
        self.scratch, self.nginx, self.flood_nginx = scratch, nginx, flood_nginx
        self.prefix, group = f"noisy{tag}.", f"bench-noisy-{tag}"
        self.groups = [group]
        self.quiet = [f"quiet-{tag}-{i}" for i in range(quiet)]
        self.flood, self.hang = f"flood-{tag}", f"hang-{tag}"
        reset_webhooks(scratch, [*self.quiet, self.flood, self.hang], 1, nginx)
        with psycopg.connect(scratch.dsn) as conn:
            conn.execute("UPDATE subscriptions SET endpoint = %s WHERE tenant_id = %s", (hanging.url, self.hang))
            conn.execute("UPDATE subscriptions SET endpoint = %s WHERE tenant_id = %s", (flood_nginx.url, self.flood))
        self.topics = {name: f"{self.prefix}{name}" for name in ("quiet", "flood", "hang")}
        ensure_topics(list(self.topics.values()), partitions=PARTITIONS)
        self.env = hub_env(scratch, nginx, self.prefix, group)
        bundle = nginx.dir / "both-ca.pem"  # each nginx has a CA of its own: the hub trusts both
        bundle.write_bytes(nginx.ca_path.read_bytes() + flood_nginx.ca_path.read_bytes())
        self.env["HUB_WEBHOOK_CA_BUNDLE"] = str(bundle)
        self.created: dict[str, dict[tuple[int, int], int]] = {}

    def produce(self, topic: str, tenants: list[str], events: int, rate: float = 0.0) -> Producer:
        """``events`` events round-robin over ``tenants`` on ``topic`` (paced at ``rate``/s when given)."""
        producer = Producer()
        producer.send(self.topics[topic], build_records(events, tenants, seed=int(time.time())), rate=rate)
        for tenant in tenants:
            self.created[tenant] = producer.created_ms
        return producer

    def delivered(self, tenants: list[str]) -> int:
        with psycopg.connect(self.scratch.dsn) as conn:
            return conn.execute("SELECT count(*) FROM delivery_jobs WHERE tenant_id = ANY(%s) AND state = 'delivered'",
                                (tenants,)).fetchone()[0]


def phase(run: Run, procs: list, quiet_rate: float, seconds: float, *, flood: int = 0, hang_rate: float = 0.0,
          quiet: list[str] | None = None) -> dict:
    """One phase: the quiet tenants' load for ``seconds`` (and a flood, a hanging tenant's load), then the
    quiet deliveries (and the flood's) all received; returns latencies and receipt times by tenant."""
    quiet = run.quiet if quiet is None else quiet
    receipts = [server.receipts(server.log_offset()) for server in (run.nginx, run.flood_nginx)]
    base = run.delivered(quiet) + (run.delivered([run.flood]) if flood else 0)
    side: list[threading.Thread] = []
    flood_producer: list[Producer] = []
    if flood:
        side.append(threading.Thread(target=lambda: flood_producer.append(run.produce("flood", [run.flood], flood))))
    if hang_rate:
        side.append(threading.Thread(target=run.produce, args=("hang", [run.hang], int(hang_rate * seconds), hang_rate)))
    for thread in side:
        thread.start()
    events = int(quiet_rate * seconds)
    if events:
        run.produce("quiet", quiet, events, quiet_rate)
    for thread in side:
        thread.join()
    expected = base + events + flood
    tenants = quiet + ([run.flood] if flood else [])
    wait_for(lambda: run.delivered(tenants) >= expected, "the phase's deliveries", 600, procs)
    time.sleep(0.5)  # nginx flushes its log every 200 ms
    seen: dict[str, float] = {}
    for log in receipts:
        log.update()
        seen.update(log.seen)
    latencies, received = by_tenant(run.scratch.dsn, seen, run.created)
    flood_in_kafka = max(flood_producer[0].created_ms.values()) if flood_producer else None
    return {"latencies": latencies, "received": received, "flood_in_kafka": flood_in_kafka}


def quiet_figures(result: dict, tenants: list[str], after: float | None = None, column: int = 1
                  ) -> tuple[float, float]:
    """p50/p99 of the tenants' latencies (``column`` 2-4: one of the STAGES), of events created after ``after``."""
    values = [row[column] for tenant in tenants for row in result["latencies"].get(tenant, ())
              if after is None or row[0] > after]
    return p50_p99(values)


def stage_line(result: dict, tenants: list[str]) -> str:
    """Where the quiet tenants' latency went: p50/p99 of each stage."""
    return "; ".join(f"{name} {'/'.join(f'{v:.0f}' for v in quiet_figures(result, tenants, column=column))}"
                     for column, name in enumerate(STAGES, start=2))


def drain_rate(result: dict, tenant: str) -> float:
    times = sorted(result["received"].get(tenant, ()))
    return (len(times) - 1) / ((times[-1] - times[0]) / 1000) if len(times) > 1 else float("nan")


def two_tenants(scratch: Scratch, nginx: Nginx, flood_nginx: Nginx, hanging: HangingReceiver,
                args: argparse.Namespace) -> None:
    run = Run(scratch, nginx, hanging, 1, flood_nginx)
    try:
        with hub_dev(run, Variant()) as procs:
            _wait_for_children(procs[0].pid)
            phase(run, procs, 5, 2, flood=PARTITIONS * 2)  # warm-up: every process connected
            alone = phase(run, procs, args.quiet_rate, args.seconds)
            flood_alone = phase(run, procs, 0, 0, flood=args.flood)
            flood = phase(run, procs, args.quiet_rate, args.seconds, flood=args.flood)
            hang = phase(run, procs, args.quiet_rate, args.seconds, hang_rate=args.hang_rate)
    finally:
        delete_prefixed(run.prefix, run.groups)
    base = quiet_figures(alone, run.quiet)
    print(f"two tenants, quiet at {args.quiet_rate:g}/s, p50 / p99 ms (ratio of p50 to alone):")
    print(f"  alone                         {base[0]:8.1f} / {base[1]:8.1f}           {stage_line(alone, run.quiet)}")
    for name, result in (("flood, whole phase", flood), ("hanging destination", hang)):
        p50, p99 = quiet_figures(result, run.quiet)
        print(f"  {name:<29} {p50:8.1f} / {p99:8.1f}   ({p50 / base[0]:.2f}x)  {stage_line(result, run.quiet)}")
    p50, p99 = quiet_figures(flood, run.quiet, after=flood["flood_in_kafka"])
    print(f"  flood, after it is in Kafka   {p50:8.1f} / {p99:8.1f}")
    alone_rate, shared_rate = drain_rate(flood_alone, run.flood), drain_rate(flood, run.flood)
    print(f"  flood drain: {shared_rate:,.0f}/s beside the quiet tenant, {alone_rate:,.0f}/s alone "
          f"({shared_rate / alone_rate:.2f}x); hanging receiver read {hanging.requests} requests")


def hundred_tenants(scratch: Scratch, nginx: Nginx, flood_nginx: Nginx, hanging: HangingReceiver,
                    args: argparse.Namespace) -> None:
    run = Run(scratch, nginx, hanging, 99, flood_nginx)
    rate = args.many_rate * len(run.quiet)
    try:
        with hub_dev(run, Variant()) as procs:
            _wait_for_children(procs[0].pid)
            phase(run, procs, 50, 2, flood=PARTITIONS * 2)
            alone = phase(run, procs, rate, args.seconds)
            flood = phase(run, procs, rate, args.seconds, flood=args.flood)
    finally:
        delete_prefixed(run.prefix, run.groups)
    print(f"100 tenants, 99 quiet at {args.many_rate:g}/s each, one flooding ({args.flood:,} events):")
    for name, result in (("alone", alone), ("flood", flood)):
        p50, p99 = quiet_figures(result, run.quiet)
        worst = max(quiet_figures(result, [tenant])[1] for tenant in run.quiet)
        print(f"  {name:<6} all quiet p50 / p99 {p50:8.1f} / {p99:8.1f} ms; worst tenant's p99 {worst:8.1f} ms; "
              f"{stage_line(result, run.quiet)}")
    print(f"  flood drain beside them: {drain_rate(flood, run.flood):,.0f}/s")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seconds", type=float, default=20.0, help="length of each phase")
    parser.add_argument("--quiet-rate", type=float, default=20.0, help="the quiet tenant's events/s")
    parser.add_argument("--flood", type=int, default=60_000, help="events the flooding tenant produces at once")
    parser.add_argument("--hang-rate", type=float, default=185.0, help="events/s to the hanging destination")
    parser.add_argument("--hang-delay", type=float, default=8.0, help="seconds the hanging destination takes")
    parser.add_argument("--many-rate", type=float, default=2.0, help="each of the 99 quiet tenants' events/s")
    parser.add_argument("--only", choices=("two", "hundred"), help="run one of the two scenarios")
    args = parser.parse_args()
    ensure_tools()
    with Scratch() as scratch, Nginx() as nginx, Nginx() as flood_nginx, \
            HangingReceiver(nginx.dir, args.hang_delay) as hanging:
        if args.only in (None, "two"):
            two_tenants(scratch, nginx, flood_nginx, hanging, args)
        if args.only in (None, "hundred"):
            hundred_tenants(scratch, nginx, flood_nginx, hanging, args)


if __name__ == "__main__":
    main()

"""The ledger: what was produced, stored, scheduled, delivered and received, checked exactly."""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from itertools import pairwise

import psycopg

TERMINAL = ("delivered", "dead_lettered", "disabled")
OPEN_WORK_SQL = f"""
SELECT (SELECT count(*) FROM event_log WHERE tenant_id = %(tenant)s),
       (SELECT count(*) FROM delivery_jobs WHERE tenant_id = %(tenant)s AND state NOT IN {TERMINAL!r})"""

JOBS_SQL = """
SELECT s.name, j.id::text, j.state, (j.lease_until IS NOT NULL AND j.lease_until > now()
       AND j.state NOT IN ('delivered', 'dead_lettered', 'disabled')) AS leased
  FROM delivery_jobs j JOIN subscriptions s ON s.id = j.subscription_id WHERE j.tenant_id = %s"""


@dataclass
class Line:
    """One check of the ledger: its name, the figure, and whether it holds."""

    name: str
    figure: str
    holds: bool


@dataclass
class Ledger:
    lines: list[Line] = field(default_factory=list)

    def check(self, name: str, figure: object, holds: bool) -> None:
        self.lines.append(Line(name, str(figure), holds))

    @property
    def balanced(self) -> bool:
        return all(line.holds for line in self.lines)

    def table(self) -> str:
        width = max(len(line.name) for line in self.lines)
        rows = [f"  {line.name:<{width}}  {line.figure:<44} {'ok' if line.holds else 'FAILS'}" for line in self.lines]
        rule = "  " + "-" * (width + 50)
        return "\n".join([rule, *rows, rule, f"  ledger {'balances' if self.balanced else 'DOES NOT BALANCE'}"])


def stored_events(dsn: str, tenant: str) -> list[tuple[int, str]]:
    """The tenant's event log as (seq, ce_id) in seq order."""
    with psycopg.connect(dsn) as conn:
        return conn.execute("SELECT seq, ce_id FROM event_log WHERE tenant_id = %s ORDER BY seq", (tenant,)).fetchall()


def open_work(dsn: str, tenant: str) -> tuple[int, int]:
    """How many events the tenant's log holds and how many of its jobs are not settled: two counts, read
    once a second while a run drains (the full books are hundreds of thousands of rows at 200 events/s)."""
    with psycopg.connect(dsn) as conn:
        row = conn.execute(OPEN_WORK_SQL, {"tenant": tenant}).fetchone()
    assert row is not None
    return int(row[0]), int(row[1])


def jobs(dsn: str, tenant: str) -> list[tuple[str, str, str, bool]]:
    with psycopg.connect(dsn) as conn:
        return conn.execute(JOBS_SQL, (tenant,)).fetchall()


def job_ids_by_ce_id(dsn: str, tenant: str, subscription: str) -> dict[str, str]:
    """The job id of each event's job for the subscription named SUBSCRIPTION, by CloudEvent id."""
    with psycopg.connect(dsn) as conn:
        rows = conn.execute(
            "SELECT e.ce_id, j.id::text FROM delivery_jobs j JOIN subscriptions s ON s.id = j.subscription_id "
            "JOIN event_log e ON e.tenant_id = j.tenant_id AND e.seq = j.event_seq "
            "WHERE j.tenant_id = %s AND s.name = %s", (tenant, subscription)).fetchall()
    return dict(rows)


def events_lines(ledger: Ledger, produced: set[str], stored: list[tuple[int, str]]) -> None:
    ids = Counter(ce_id for _, ce_id in stored)
    twice = sum(1 for count in ids.values() if count > 1)
    ledger.check("events produced = stored", f"{len(produced)} produced, {len(ids)} stored",
                 set(ids) == produced)
    ledger.check("events stored twice", twice, twice == 0)


def jobs_lines(ledger: Ledger, rows: list[tuple[str, str, str, bool]], events: int,
               received: Counter[str]) -> None:
    """Per subscription: created = delivered + dead-lettered + disabled + failed-but-scheduled, and none
    still scheduled or in flight once the run has drained."""
    by_sub: dict[str, Counter[str]] = {}
    open_job: dict[str, str] = {}  # one open job per subscription: what a failing line points at
    for name, job, state, leased in rows:
        by_sub.setdefault(name, Counter())["in flight" if leased else state] += 1
        if leased or state not in TERMINAL:
            open_job.setdefault(name, f" (e.g. job {job}, {'in flight' if leased else state})")
    for name, states in sorted(by_sub.items()):
        created = sum(states.values())
        scheduled = sum(n for state, n in states.items() if state not in (*TERMINAL, "in flight"))
        parts = [states["delivered"], states["dead_lettered"], states["disabled"], scheduled]
        ledger.check(f"jobs {name}: created = d+dl+dis+sched",
                     f"{created} = {' + '.join(map(str, parts))}", created == sum(parts) == events)
        example = open_job.get(name, "")
        ledger.check(f"jobs {name}: in flight after drain", f"{states['in flight']}{example if states['in flight'] else ''}",
                     states["in flight"] == 0)
        # Every job ends within the drain (issue 54): one still due is work the hub did not get to.
        ledger.check(f"jobs {name}: still scheduled after drain", f"{scheduled}{example if scheduled else ''}",
                     scheduled == 0)
    delivered = {job for _, job, state, _ in rows if state == "delivered"}
    missing = delivered - set(received)
    ledger.check("delivered jobs never received",
                 f"{len(missing)}" + (f" (e.g. job {min(missing)})" if missing else ""), not missing)
    receipts = sum(count for job, count in received.items() if job in delivered)
    ledger.check("receipts - delivered = duplicates", f"{receipts} - {len(delivered)} = {receipts - len(delivered)}",
                 True)


def pull_lines(ledger: Ledger, seen: list[tuple[int, str]], stored: list[tuple[int, str]]) -> None:
    seqs = [seq for seq, _ in seen]
    in_order = all(a < b for a, b in pairwise(seqs))
    ledger.check("pull reader: every event once, in order", f"{len(seen)} read of {len(stored)}",
                 in_order and seen == stored)


def api_lines(ledger: Ledger, entries: list[tuple[float, int, int]],
              windows: list[tuple[float, float, str]]) -> None:
    """5xx answers are allowed only inside a window where the database was down (stated in docs/chaos.md)."""
    fives = [(moment, status) for moment, _port, status in entries if status >= 500]
    outside = [f for f in fives if not any(start <= f[0] <= end for start, end, _kind in windows)]
    refused = sum(1 for _, _, status in entries if status == 0)
    ledger.check("API requests (5xx, refused)", f"{len(entries)} ({len(fives)}, {refused})", True)
    ledger.check("API 5xx outside fault windows", len(outside), not outside)


def consumer_lines(ledger: Ledger, acks: Counter[str], stored: list[tuple[int, str]], left: int, dead: int,
                   ends: Counter[str]) -> None:
    """The consumer queue: every stored event acknowledged at least once, and nothing left behind (an ack
    the hub did not apply leaves its message in the queue; one delivered too often is dead-lettered)."""
    missing = {ce_id for _, ce_id in stored} - set(acks)
    ledger.check("consumer queue: stored events never acked", f"{len(missing)} of {len(stored)}", not missing)
    total = sum(acks.values())
    ledger.check("consumer queue: acks - events = redeliveries", f"{total} - {len(acks)} = {total - len(acks)}", True)
    ledger.check("consumer queue: left in queue, dead-lettered", f"{left}, {dead}", left == 0 and dead == 0)
    streams = ", ".join(f"{name} {count}" for name, count in sorted(ends.items())) or "none"
    ledger.check("consumer queue: streams ended", streams, True)

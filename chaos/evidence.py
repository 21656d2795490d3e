"""What a failing ordering check points at, and the pace of an ordered subscription, from the hub's own
records (``delivery_attempts``, ``delivery_jobs``, ``event_log``), written beside the ledger.

For each key a check names: the key's events (log order, job state), every recorded attempt of each
(when it began, how long it took, its outcome) and what the destination received of them (a queue's
message ids and receive counts). Each attempt's lease is its job's claim; a try whose record its lease
refused has a row of its own, its detail naming that lease (N108); a send of a worker killed before its
record has no row: it shows as a receipt without an attempt near it.

The attempt log also gives the hub's own send order, which no destination's behaviour can blur: per
key, no attempt of an event may begin after an attempt of a later event of the key began.
"""

from __future__ import annotations

import statistics
from collections import Counter, defaultdict
from datetime import datetime
from itertools import pairwise
from pathlib import Path
from typing import Any, NamedTuple

import orjson
import psycopg

ATTEMPTS_SQL = """
SELECT e.partition_key, e.seq, e.ce_id, j.id::text, j.state, a.attempt_no, a.outcome, a.error_class,
       a.detail, a.latency_ms, a.attempted_at
  FROM delivery_attempts a JOIN delivery_jobs j ON j.id = a.job_id
  JOIN subscriptions s ON s.id = j.subscription_id
  JOIN event_log e ON e.tenant_id = j.tenant_id AND e.seq = j.event_seq
 WHERE j.tenant_id = %s AND s.name = %s AND e.partition_key IS NOT NULL
 ORDER BY e.partition_key, a.attempted_at, e.seq"""


class Attempt(NamedTuple):
    """One recorded try of an ordered job."""

    key: str
    seq: int
    ce_id: str
    job_id: str
    job_state: str
    attempt_no: int
    outcome: str
    error_class: str
    detail: str
    latency_ms: int
    at: datetime

    def brief(self) -> str:
        what = self.outcome + (f" {self.error_class}" if self.error_class else "")
        return f"#{self.attempt_no} {self.at:%H:%M:%S.%f}"[:-3] + f" {what} {self.latency_ms} ms"


def attempts_by_key(dsn: str, tenant: str, name: str) -> dict[str, list[Attempt]]:
    """Every recorded attempt of the ordered subscription NAME, per key, in the order they began."""
    with psycopg.connect(dsn) as conn:
        rows = conn.execute(ATTEMPTS_SQL, (tenant, name)).fetchall()
    by_key: dict[str, list[Attempt]] = defaultdict(list)
    for row in rows:
        by_key[row[0]].append(Attempt(*row))
    return by_key


def send_order_breaches(by_key: dict[str, list[Attempt]]) -> list[str]:
    """Attempts that began after an attempt of a later event of their key: the hub sent out of order."""
    breaches = []
    for key, attempts in by_key.items():
        latest: Attempt | None = None
        for attempt in attempts:
            if latest is not None and attempt.seq < latest.seq:
                breaches.append(f"{key}: {attempt.ce_id} {attempt.brief()} after {latest.ce_id} {latest.brief()}")
            if latest is None or attempt.seq > latest.seq:
                latest = attempt
    return breaches


def spread(values: list[float]) -> dict[str, float]:
    """p50, p90, p99 and max of VALUES (zeros when there are none)."""
    if len(values) < 2:
        return {"p50": values[0] if values else 0.0, "p90": 0.0, "p99": 0.0, "max": max(values, default=0.0)}
    cuts = statistics.quantiles(values, n=100, method="inclusive")
    return {"p50": round(cuts[49], 3), "p90": round(cuts[89], 3), "p99": round(cuts[98], 3),
            "max": round(max(values), 3)}


def pace(by_key: dict[str, list[Attempt]], lease_seconds: float) -> dict[str, Any]:
    """The figures of an ordered subscription's pace: how long its sends took, how many failed and why,
    how many were in flight on average, how long a head waited between tries, and how long a key waited
    from the end of one event's last try to the first try of its next."""
    every = [attempt for attempts in by_key.values() for attempt in attempts]
    if not every:
        return {"attempts": 0}
    began = min(a.at for a in every)
    span = max((a.at - began).total_seconds() + a.latency_ms / 1000 for a in every) or 1.0
    retry_gaps, key_gaps = [], []
    for attempts in by_key.values():
        for before, after in pairwise(attempts):
            gap = (after.at - before.at).total_seconds() - before.latency_ms / 1000
            (retry_gaps if after.job_id == before.job_id else key_gaps).append(gap)
    latencies = [a.latency_ms / 1000 for a in every]
    return {
        "attempts": len(every), "keys": len(by_key), "span_seconds": round(span, 1),
        "delivered_per_second": round(sum(a.outcome == "delivered" for a in every) / span, 1),
        "outcomes": dict(Counter(f"{a.outcome} {a.error_class}".strip() for a in every).most_common(8)),
        "send_seconds": spread(latencies),
        "sends_longer_than_half_the_lease": sum(value > lease_seconds / 2 for value in latencies),
        "mean_in_flight": round(sum(latencies) / span, 1),
        "retry_wait_seconds": spread(retry_gaps), "retries": len(retry_gaps),
        "key_wait_seconds": spread(key_gaps),
    }


def key_detail(key: str, expected: list[tuple[str, str]], attempts: list[Attempt],
               messages: list[dict[str, object]], arrivals: list[str]) -> dict[str, Any]:
    """One key's events (log order, job state), each with its recorded attempts, and what was received."""
    tries: dict[str, list[str]] = defaultdict(list)
    for attempt in attempts:
        tries[attempt.ce_id].append(attempt.brief())
    return {"key": key,
            "events": [{"ce_id": ce_id, "job_state": state, "attempts": tries.get(ce_id, [])}
                       for ce_id, state in expected],
            "received": arrivals,
            "queue_messages": [message for message in messages if message.get("key") == key]}


def attempts_of(ce_id: str, attempts: list[Attempt]) -> str:
    """A short account of one event's recorded attempts, for a ledger line."""
    mine = [attempt.brief() for attempt in attempts if attempt.ce_id == ce_id]
    return f"{len(mine)} attempt(s): " + "; ".join(mine[:4]) if mine else "no recorded attempt"


def write(folder: Path | None, name: str, payload: dict[str, Any]) -> Path | None:
    """Write PAYLOAD as ``ordering-NAME.json`` in the run's folder (kept when the run fails)."""
    if folder is None:
        return None
    path = folder / f"ordering-{name}.json"
    path.write_bytes(orjson.dumps(payload, option=orjson.OPT_INDENT_2, default=str))
    return path

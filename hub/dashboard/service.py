"""``GET /v1/dashboard``: the census and backlog now, and the period's counts with a time series.

Everything is read in one REPEATABLE READ transaction (``snapshot_read``), so the census, the
backlog, the period counts and the buckets describe one instant. Buckets are hourly for a period
up to 48 hours and daily above; each row lands in the bucket of its UTC hour or day, so the
bucket counts add up to the period counts by construction.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from typing import Any

from sqlalchemy import Connection

from hub.config import get_settings
from hub.dashboard import queries
from hub.dashboard.period import Period, PeriodRequest, resolve
from hub.dashboard.queries import Scope
from hub.dashboard.snapshot import snapshot_read
from hub.retention.service import coverage_start
from hub.sinks.vocabulary import Outcome, SinkKind

HOURLY_UP_TO = timedelta(hours=48)
VERIFICATION_STATES = ("pending_verification", "active", "degraded", "disabled")


@dataclass
class BucketCounts:
    """The counts of one bucket (or, summed, of the whole period)."""

    events: int = 0
    jobs: int = 0
    attempts: Counter[str] = field(default_factory=Counter)
    pull_events: int = 0
    pull_matches: int = 0


@dataclass
class Snapshot:
    snapshot_at: datetime
    coverage_start: datetime
    period: Period
    census: list[tuple[bool, str, str, int]]
    pending_jobs: int
    oldest_pending_at: datetime | None
    buckets: list[tuple[datetime, datetime, BucketCounts]]
    pull_computed: bool


def bucket_edges(period: Period) -> tuple[str, list[tuple[datetime, datetime]]]:
    """The unit (``hour``/``day``) and the UTC buckets tiling the period, clipped to its ends."""
    unit = "hour" if period.span <= HOURLY_UP_TO else "day"
    step = timedelta(hours=1) if unit == "hour" else timedelta(days=1)
    start = period.start.astimezone(UTC)
    floor = start.replace(minute=0, second=0, microsecond=0)
    if unit == "day":
        floor = floor.replace(hour=0)
    edges = []
    cursor = floor
    while cursor < period.end:
        edges.append((max(cursor, period.start), min(cursor + step, period.end)))
        cursor += step
    return unit, edges


def _fill_buckets(connection: Connection, scope: Scope, period: Period, with_pull: bool
                  ) -> list[tuple[datetime, datetime, BucketCounts]]:
    unit, edges = bucket_edges(period)
    counts = {_key(start, unit): BucketCounts() for start, _ in edges}
    params = {**scope.params(), "start": period.start, "end": period.end, "unit": unit}
    for bucket, n in connection.execute(queries.events_received(scope), params):
        counts[_utc(bucket)].events = n
    for bucket, n in connection.execute(queries.jobs_created(scope), params):
        counts[_utc(bucket)].jobs = n
    for bucket, outcome, n in connection.execute(queries.attempts(scope), params):
        counts[_utc(bucket)].attempts[outcome] += n
    if with_pull:
        for statement, start, end in pull_parts(scope, period):
            for bucket, distinct, matches in connection.execute(statement, {**params, "start": start, "end": end}):
                counts[_utc(bucket)].pull_events += distinct
                counts[_utc(bucket)].pull_matches += matches
    return [(start, end, counts[_key(start, unit)]) for start, end in edges]


def pull_parts(scope: Scope, period: Period) -> list[tuple[Any, datetime, datetime]]:
    """Ingest's hourly rollup for the whole hours of the period, the event log for the partial ends.

    Each event lands in exactly one part (the rollup's hour is the hour the event was received).
    """
    first_full = _key(period.start, "hour")
    if first_full < period.start:
        first_full += timedelta(hours=1)
    last_full = _key(period.end, "hour")
    if first_full >= last_full:
        return [(queries.pull_eligibility(scope), period.start, period.end)]
    parts = [(queries.pull_eligibility_rollup(scope), first_full, last_full)]
    if period.start < first_full:
        parts.append((queries.pull_eligibility(scope), period.start, first_full))
    if last_full < period.end:
        parts.append((queries.pull_eligibility(scope), last_full, period.end))
    return parts


def _key(moment: datetime, unit: str) -> datetime:
    floor = moment.astimezone(UTC).replace(minute=0, second=0, microsecond=0)
    return floor.replace(hour=0) if unit == "day" else floor


def _utc(naive_utc: datetime) -> datetime:
    return naive_utc.replace(tzinfo=UTC)


def read_dashboard(*, scope: Scope, request: PeriodRequest) -> Snapshot:
    """The dashboard at one database instant, or a 422 when the period cannot be served."""
    ceiling = timedelta(hours=get_settings().dashboard_pull_ceiling_hours)
    with snapshot_read() as (connection, snapshot_at):
        coverage = coverage_start(connection)
        period = resolve(request, snapshot_at=snapshot_at, coverage=coverage)
        census = [tuple(row) for row in connection.execute(queries.census(scope), scope.params())]
        pending, oldest = connection.execute(queries.backlog(scope), scope.params()).one()
        with_pull = period.span <= ceiling
        buckets = _fill_buckets(connection, scope, period, with_pull)
    return Snapshot(snapshot_at=snapshot_at, coverage_start=coverage, period=period, census=census,
                    pending_jobs=pending, oldest_pending_at=oldest, buckets=buckets, pull_computed=with_pull)


def census_body(rows: list[tuple[bool, str, str, int]]) -> dict[str, Any]:
    """The total and its four splits; each split sums to the total."""
    by_enabled = {"enabled": 0, "disabled": 0}
    by_state = dict.fromkeys(VERIFICATION_STATES, 0)
    by_kind = dict.fromkeys((kind.value for kind in SinkKind), 0)
    by_channel = {"push": 0, "pull": 0}
    for enabled, state, kind, n in rows:
        by_enabled["enabled" if enabled else "disabled"] += n
        by_state[state] += n
        by_kind[kind] += n
        by_channel["pull" if kind == SinkKind.pull else "push"] += n
    return {"total": sum(row[3] for row in rows), "by_enabled": by_enabled, "by_verification_state": by_state,
            "by_sink_kind": by_kind, "by_channel": by_channel}


def age_seconds(snapshot_at: datetime, oldest: datetime | None) -> int | None:
    return None if oldest is None else max(0, int((snapshot_at - oldest).total_seconds()))


def attempt_counts(counter: Counter[str]) -> dict[str, int]:
    return {outcome.value: counter.get(outcome.value, 0) for outcome in Outcome}

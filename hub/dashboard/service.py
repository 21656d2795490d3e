"""``GET /v1/dashboard``: the census and backlog now, and the period's counts with a time series.

Everything is read in one REPEATABLE READ transaction (``snapshot_read``), so the census, the
backlog, the period counts and the buckets describe one instant. Buckets are hourly for a period
up to 48 hours and daily above; each row lands in the bucket of its UTC hour or day, so the
bucket counts add up to the period counts by construction. The period's whole hours are counted
from the hourly rollups, its partial first and last hour from the raw tables.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from typing import Any

from sqlalchemy import Connection, TextClause
from sqlmodel import Session

from hub.config import get_settings
from hub.dashboard import queries
from hub.dashboard.attention import Page, read_page
from hub.dashboard.period import Period, PeriodRequest, hour_parts, refuse, resolve
from hub.dashboard.queries import Scope
from hub.dashboard.snapshot import snapshot_read
from hub.providers.registry import kinds, provider_for
from hub.retention.service import coverage_start
from hub.sinks.vocabulary import Outcome

HOURLY_UP_TO = timedelta(hours=48)
PAGE_LIMIT_RANGE, DEFAULT_PAGE_LIMIT = (1, 50), 20
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


# Each period figure: the statement counting the raw table, and the one summing its hourly rollup.
FIGURES: dict[str, tuple[Callable[[Scope], TextClause], Callable[[Scope], TextClause]]] = {
    "events": (queries.events_received, queries.events_received_rollup),
    "jobs": (queries.jobs_created, queries.jobs_created_rollup),
    "attempts": (queries.attempts, queries.attempts_rollup),
    "pull": (queries.pull_eligibility, queries.pull_eligibility_rollup),
}


def period_statements(scope: Scope, period: Period, with_pull: bool) -> list[tuple[str, TextClause, dict]]:
    """``(figure, statement, parameters)`` counting the period: whole hours from the rollups, the
    partial first and last hour from the raw tables (``hour_parts``)."""
    unit, _ = bucket_edges(period)
    names = ("events", "jobs", "attempts", "pull") if with_pull else ("events", "jobs", "attempts")
    found = []
    for from_rollup, start, end in hour_parts(period):
        params = {**scope.params(), "start": start, "end": end, "unit": unit}
        for name in names:
            raw, rollup = FIGURES[name]
            found.append((name, (rollup if from_rollup else raw)(scope), params))
    return found


def _add(counts: BucketCounts, figure: str, row: Any) -> None:
    if figure == "events":
        counts.events += row[1]
    elif figure == "jobs":
        counts.jobs += row[1]
    elif figure == "attempts":
        counts.attempts[row[1]] += row[2]
    else:
        counts.pull_events += row[1]
        counts.pull_matches += row[2]


def _fill_buckets(connection: Connection, scope: Scope, period: Period, with_pull: bool
                  ) -> list[tuple[datetime, datetime, BucketCounts]]:
    unit, edges = bucket_edges(period)
    counts = {_key(start, unit): BucketCounts() for start, _ in edges}
    for figure, statement, params in period_statements(scope, period, with_pull):
        for row in connection.execute(statement, params):
            _add(counts[_utc(row[0])], figure, row)
    return [(start, end, counts[_key(start, unit)]) for start, end in edges]


def _key(moment: datetime, unit: str) -> datetime:
    floor = moment.astimezone(UTC).replace(minute=0, second=0, microsecond=0)
    return floor.replace(hour=0) if unit == "day" else floor


def _utc(naive_utc: datetime) -> datetime:
    return naive_utc.replace(tzinfo=UTC)


def read_dashboard(*, session: Session, scope: Scope, from_: str | None, to: str | None,
                   window_hours: str | None) -> Snapshot:
    """The dashboard at one database instant, or a 422 when the period cannot be served.

    The period parameters arrive as sent (N1): their shape is checked before anything is read.
    """
    request = PeriodRequest.parse(from_=from_, to=to, window_hours=window_hours)
    ceiling = timedelta(hours=get_settings().dashboard_pull_ceiling_hours)
    with snapshot_read(session) as (connection, snapshot_at):
        coverage = coverage_start(connection)
        period = resolve(request, snapshot_at=snapshot_at, coverage=coverage)
        census = [tuple(row) for row in connection.execute(queries.census(scope), scope.params())]
        pending, oldest = connection.execute(queries.backlog(scope), scope.params()).one()
        with_pull = period.span <= ceiling
        buckets = _fill_buckets(connection, scope, period, with_pull)
    return Snapshot(snapshot_at=snapshot_at, coverage_start=coverage, period=period, census=census,
                    pending_jobs=pending, oldest_pending_at=oldest, buckets=buckets, pull_computed=with_pull)


def page_limit(value: str | None) -> int:
    """R-getDashboardNeedsAttention-05: 1-50, default 20; out of range is refused, not clamped."""
    if value is None:
        return DEFAULT_PAGE_LIMIT
    low, high = PAGE_LIMIT_RANGE
    if not value.strip().isdigit() or not low <= int(value) <= high:
        raise refuse("limit", f"a whole number from {low} to {high}")
    return int(value)


def read_needs_attention(*, session: Session, scope: Scope, caller: str, from_: str | None, to: str | None,
                         window_hours: str | None, limit: str | None, cursor: str | None) -> Page:
    """One page of the attention list; the parameters arrive as sent (N1).

    A cursor page must repeat the first page's ``window_start`` and ``window_end`` as ``from`` and
    ``to`` (R-getDashboardNeedsAttention-06/07): ``window_hours`` applies to the first page only.
    """
    request = PeriodRequest.parse(from_=from_, to=to, window_hours=window_hours)
    size = page_limit(limit)
    if cursor and (from_ is None or to is None):
        raise refuse("cursor", "a cursor page needs the first page's window_start and window_end as from and to")
    return read_page(session=session, scope=scope, caller=caller, request=request, limit=size,
                     cursor=cursor or None)


def census_body(rows: list[tuple[bool, str, str, int]]) -> dict[str, Any]:
    """The total and its four splits; each split sums to the total."""
    by_enabled = {"enabled": 0, "disabled": 0}
    by_state = dict.fromkeys(VERIFICATION_STATES, 0)
    by_kind = dict.fromkeys(kinds(), 0)
    by_channel = {"push": 0, "pull": 0}
    for enabled, state, kind, n in rows:
        by_enabled["enabled" if enabled else "disabled"] += n
        by_state[state] += n
        by_kind[kind] += n
        by_channel["push" if provider_for(kind).is_push else "pull"] += n
    return {"total": sum(row[3] for row in rows), "by_enabled": by_enabled, "by_verification_state": by_state,
            "by_sink_kind": by_kind, "by_channel": by_channel}


def age_seconds(snapshot_at: datetime, oldest: datetime | None) -> int | None:
    return None if oldest is None else max(0, int((snapshot_at - oldest).total_seconds()))


def attempt_counts(counter: Counter[str]) -> dict[str, int]:
    return {outcome.value: counter.get(outcome.value, 0) for outcome in Outcome}

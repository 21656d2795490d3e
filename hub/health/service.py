"""The delivery-health rollup of one subscription (``GET /v1/subscriptions/{id}/health``).

Counts cover ``[window_start, snapshot_at)``: its whole UTC hours from the hourly attempt rollups,
its partial first and last hour from ``delivery_attempts`` (``hour_parts``, as the dashboard reads),
so a 30-day window reads some 720 rollup rows per outcome, not every attempt. The verdict and the
last success and failure come from ``subscription_health`` (whenever they happened). Poison
events are the ``poison`` attempts ingest records under the tenant id it could read from the
quarantined record (untrusted, best effort).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime, timedelta

from sqlalchemy import Connection, text
from sqlmodel import Session

from hub.config import get_settings
from hub.dashboard.period import Period, rows_by_hour_part
from hub.dashboard.snapshot import snapshot_read
from hub.retention.service import coverage_start
from hub.sinks.vocabulary import Outcome
from hub.subscription.models import Subscription

RECENT = timedelta(hours=24)
FAILURES = (Outcome.failed.value, Outcome.dead_lettered.value)

# (raw, rollup) statement pairs over one part [start, end) of a period (``rows_by_hour_part``).
OUTCOMES_SQL = (text("""
SELECT outcome, count(*), max(attempted_at) FROM delivery_attempts
 WHERE subscription_id = :sub AND attempted_at >= :start AND attempted_at < :end
 GROUP BY outcome
"""), text("""
SELECT outcome, sum(attempts), max(last_attempted_at) FROM attempt_counts_hourly
 WHERE subscription_id = :sub AND hour >= :start AND hour < :end
 GROUP BY outcome
"""))
POISON_SQL = (text("""
SELECT count(*) FROM delivery_attempts
 WHERE tenant_id = :tenant AND outcome = 'poison' AND attempted_at >= :start AND attempted_at < :end
"""), text("""
SELECT coalesce(sum(attempts), 0) FROM attempt_totals_hourly
 WHERE tenant_id = :tenant AND outcome = 'poison' AND hour >= :start AND hour < :end
"""))
ANY_ATTEMPT_SQL = text("SELECT EXISTS (SELECT 1 FROM delivery_attempts WHERE subscription_id = :sub)")
HEALTH_ROW_SQL = text("""
SELECT last_success_at, last_failure_at, auto_disabled, disabled_reason
  FROM subscription_health WHERE subscription_id = :sub
""")


@dataclass
class Health:
    """The figures the contract's ``SubscriptionHealth`` is built from."""

    snapshot_at: datetime
    window_start: datetime
    outcomes: dict[str, int] = field(default_factory=dict)
    recent: dict[str, int] = field(default_factory=dict)
    poison_events: int = 0
    auto_disabled: bool | None = None
    disabled_reason: str = ""
    last_success_at: datetime | None = None
    last_failure_at: datetime | None = None

    @property
    def success_rate(self) -> float | None:
        delivered = self.outcomes.get(Outcome.delivered, 0)
        terminal = delivered + sum(self.outcomes.get(outcome, 0) for outcome in FAILURES)
        return delivered / terminal if terminal else None

    def status(self, *, enabled: bool) -> str:
        """Down: auto-disabled; Degraded: manual disable, dead letters or dropped tenant events."""
        if self.auto_disabled:
            return "Down"
        if not enabled or self.outcomes.get(Outcome.dead_lettered, 0) or self.poison_events:
            return "Degraded"
        return "Healthy"


def health_window_start(*, snapshot_at: datetime, coverage: datetime) -> datetime:
    """``snapshot_at`` minus the health window, or the coverage start when later, never after ``snapshot_at``."""
    wanted = snapshot_at - timedelta(days=get_settings().health_window_days)
    return min(snapshot_at, max(wanted, coverage))


def _latest(*moments: datetime | None) -> datetime | None:
    present = [moment for moment in moments if moment is not None]
    return max(present) if present else None


def outcome_counts(connection: Connection, *, sub_id: object, start: datetime,
                   end: datetime) -> dict[str, tuple[int, datetime]]:
    """Attempts of one subscription in ``[start, end)`` by outcome: (count, latest attempt)."""
    counts: dict[str, tuple[int, datetime]] = {}
    raw, rollup = OUTCOMES_SQL
    for outcome, count, latest in rows_by_hour_part(connection, Period(start, end), raw=raw, rollup=rollup,
                                                    params={"sub": sub_id}):
        before, seen = counts.get(outcome, (0, latest))
        counts[outcome] = (before + int(count), max(seen, latest))
    return counts


def poison_count(connection: Connection, *, tenant_id: str, start: datetime, end: datetime) -> int:
    """Poison attempts recorded under ``tenant_id`` in ``[start, end)``."""
    raw, rollup = POISON_SQL
    return sum(int(count) for (count,) in rows_by_hour_part(connection, Period(start, end), raw=raw, rollup=rollup,
                                                          params={"tenant": tenant_id}))


def _count_outcomes(connection: Connection, sub: Subscription, health: Health) -> tuple[datetime | None, ...]:
    recent_start = max(health.window_start, health.snapshot_at - RECENT)
    counts = outcome_counts(connection, sub_id=sub.id, start=health.window_start, end=health.snapshot_at)
    recent = outcome_counts(connection, sub_id=sub.id, start=recent_start, end=health.snapshot_at)
    last_success = last_failure = None
    for outcome, (total, latest) in counts.items():
        health.outcomes[outcome] = total
        if outcome in recent:
            health.recent[outcome] = recent[outcome][0]
        if outcome == Outcome.delivered:
            last_success = latest
        elif outcome in FAILURES:
            last_failure = _latest(last_failure, latest)
    return last_success, last_failure


def read_health(*, session: Session, sub: Subscription) -> Health:
    """The rollup of ``sub`` (already checked to be the caller's) at one database instant."""
    with snapshot_read(session) as (connection, snapshot_at):
        start = health_window_start(snapshot_at=snapshot_at, coverage=coverage_start(connection))
        health = Health(snapshot_at=snapshot_at, window_start=start)
        last_success, last_failure = _count_outcomes(connection, sub, health)
        health.poison_events = poison_count(connection, tenant_id=sub.tenant_id, start=start, end=snapshot_at)
        row = connection.execute(HEALTH_ROW_SQL, {"sub": sub.id}).first()
        # The engine writes the health row only for jobs it tried; a job that ended without a try
        # (disabled, held past the horizon) leaves an attempt and no row: attempts exist, no verdict.
        attempted = row is None and connection.execute(ANY_ATTEMPT_SQL, {"sub": sub.id}).scalar_one()
    if row is not None:
        health.auto_disabled = bool(row.auto_disabled or sub.auto_disabled)
        health.disabled_reason = row.disabled_reason or sub.disabled_reason
        last_success = _latest(last_success, row.last_success_at)
        last_failure = _latest(last_failure, row.last_failure_at)
    elif sub.auto_disabled:
        health.auto_disabled, health.disabled_reason = True, sub.disabled_reason
    elif attempted:
        health.auto_disabled = False
    health.last_success_at, health.last_failure_at = last_success, last_failure
    return health

"""The retention sweep and the coverage bound it keeps truthful.

Until the first sweep, nothing has ever been deleted, so history is uninterrupted back to the
retention horizon (now minus the retention window, moving with time): that is the coverage a
fresh install reports, not its install instant. The sweep first moves
``retention_coverage.coverage_start`` forward to its horizon (on the first sweep, to the horizon
itself) and marks the row swept, and commits; only then does it delete rows older than the horizon, a batch per
short transaction, so no reader is ever told history is complete where rows may be missing, and no
delete holds its locks for long. One process sweeps at a time: a PostgreSQL advisory lock held on
its own connection for the whole sweep; a second sweeper skips the round.

Attempts and jobs are found through their primary keys, which are UUIDv7 (time-ordered): every id
minted before the horizon sorts below the horizon's UUIDv7 floor. Events are found through the
(tenant, received_at) index, tenant by tenant. Only finished jobs are deleted. Last, the hourly
rollups (pull eligibility, and the dashboard's event, job and attempt counts) lose every hour
that starts before the horizon.
"""

from __future__ import annotations

import logging
import time
import uuid
from dataclasses import dataclass, field
from datetime import datetime, timedelta

from sqlalchemy import Connection, Engine, text
from sqlmodel import Session

from hub import metrics
from hub.config import get_settings
from hub.dataplane.models import FINISHED_JOB_STATES, state_in
from hub.dataplane.rollups import HOURLY_COUNTS
from hub.ingest.models import PullEligibility

log = logging.getLogger("hub.retention")

# An arbitrary, fixed advisory-lock key: "hub-retention-sweep".
SWEEP_LOCK_KEY = 0x6875622D7377

ADVANCE_SQL = text("""
UPDATE retention_coverage
   SET coverage_start = CASE WHEN swept_at IS NULL THEN :horizon ELSE GREATEST(coverage_start, :horizon) END,
       swept_at = now()
 WHERE id = 1 RETURNING coverage_start
""")
# Never swept: the retention horizon of this transaction's instant (or the stored bound, when older).
COVERAGE_SQL = text("""
SELECT CASE WHEN swept_at IS NULL THEN LEAST(coverage_start, now() - make_interval(days => :days))
            ELSE coverage_start END
  FROM retention_coverage WHERE id = 1
""")
DELETE_ATTEMPTS_SQL = text("""
DELETE FROM delivery_attempts WHERE id IN (
  SELECT id FROM delivery_attempts WHERE id < :floor AND attempted_at < :horizon ORDER BY id LIMIT :rows)
""")
DELETE_JOBS_SQL = text(f"""
DELETE FROM delivery_jobs WHERE id IN (
  SELECT id FROM delivery_jobs
   WHERE id < :floor AND created_at < :horizon AND {state_in(FINISHED_JOB_STATES)}
   ORDER BY id LIMIT :rows)
""")
DELETE_EVENTS_SQL = text("""
DELETE FROM event_log WHERE tenant_id = :tenant AND seq IN (
  SELECT seq FROM event_log WHERE tenant_id = :tenant AND received_at < :horizon LIMIT :rows)
""")
# The hourly rollups, by their hour column. A row for an hour that starts before the horizon goes
# (the horizon's own hour too): readers take rollup hours only from coverage_start on, which is at
# or after the horizon, so no reader is left counting from a rollup hour whose raw rows were swept.
HOURLY_ROLLUPS = ((PullEligibility.__tablename__, "bucket_start"),
                  *((model.__tablename__, "hour") for model in HOURLY_COUNTS))


@dataclass
class SweepReport:
    """What one sweep did: its horizon and the rows it removed per table."""

    horizon: datetime
    coverage_start: datetime
    deleted: dict[str, int] = field(default_factory=dict)
    seconds: float = 0.0


def coverage_start(session: Session | Connection) -> datetime:
    """The earliest instant of uninterrupted retained history (read in the caller's snapshot)."""
    return session.execute(COVERAGE_SQL, {"days": get_settings().retention_days}).scalar_one()


def uuid7_floor(moment: datetime) -> uuid.UUID:
    """The smallest UUIDv7 minted at ``moment`` (millisecond precision)."""
    millis = int(moment.timestamp() * 1000)
    return uuid.UUID(bytes=millis.to_bytes(6, "big") + bytes([0x70, 0, 0x80]) + bytes(7))


def _batched(engine: Engine, statement, params: dict, table: str, report: SweepReport) -> None:  # noqa: ANN001
    """Repeat a LIMITed delete, one short transaction each, until it removes nothing."""
    while True:
        with engine.begin() as connection:
            removed = connection.execute(statement, params).rowcount
        if removed <= 0:
            return
        report.deleted[table] = report.deleted.get(table, 0) + removed
        metrics.RETENTION_ROWS_DELETED.labels(table=table).inc(removed)


def _delete_older(engine: Engine, report: SweepReport, batch_rows: int) -> None:
    horizon = report.horizon
    floor = uuid7_floor(horizon)
    common = {"horizon": horizon, "floor": floor, "rows": batch_rows}
    _batched(engine, DELETE_ATTEMPTS_SQL, common, "delivery_attempts", report)
    _batched(engine, DELETE_JOBS_SQL, common, "delivery_jobs", report)
    with engine.connect() as connection:
        tenants = [row[0] for row in connection.execute(text("SELECT tenant_id FROM tenant_counters ORDER BY 1"))]
    for tenant in tenants:
        _batched(engine, DELETE_EVENTS_SQL, {"tenant": tenant, "horizon": horizon, "rows": batch_rows},
                 "event_log", report)
    for table, hour in HOURLY_ROLLUPS:
        with engine.begin() as connection:
            removed = connection.execute(text(f"DELETE FROM {table} WHERE {hour} < :horizon"),
                                         {"horizon": horizon}).rowcount
        report.deleted[table] = max(removed, 0)


def _advance_coverage(engine: Engine, retention: timedelta) -> tuple[datetime, datetime]:
    """Commit the new coverage bound before any delete; returns (horizon, coverage_start)."""
    with engine.begin() as connection:
        horizon = connection.execute(text("SELECT now() - :keep"), {"keep": retention}).scalar_one()
        start = connection.execute(ADVANCE_SQL, {"horizon": horizon}).scalar_one()
    return horizon, start


def sweep_once(*, engine: Engine, retention: timedelta, batch_rows: int) -> SweepReport | None:
    """One sweep; None when another process holds the sweep lock."""
    started = time.monotonic()
    with engine.connect() as lock_connection:
        taken = lock_connection.execute(text("SELECT pg_try_advisory_lock(:key)"), {"key": SWEEP_LOCK_KEY}).scalar()
        lock_connection.commit()
        if not taken:
            metrics.RETENTION_SWEEPS.labels(result="locked_elsewhere").inc()
            return None
        try:
            horizon, start = _advance_coverage(engine, retention)
            metrics.RETENTION_COVERAGE_START.set(start.timestamp())
            report = SweepReport(horizon=horizon, coverage_start=start)
            _delete_older(engine, report, batch_rows)
        finally:
            lock_connection.execute(text("SELECT pg_advisory_unlock(:key)"), {"key": SWEEP_LOCK_KEY})
            lock_connection.commit()
    report.seconds = time.monotonic() - started
    metrics.RETENTION_SWEEPS.labels(result="done").inc()
    metrics.RETENTION_SWEEP_SECONDS.set(report.seconds)
    log.info("retention sweep done", extra={"fields": {"deleted": report.deleted, "seconds": round(report.seconds, 3)}})
    return report

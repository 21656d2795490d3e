"""Hourly count rollups for the dashboard: events received, jobs created, attempts by outcome.

``event_counts_hourly``, ``job_counts_hourly``/``job_totals_hourly`` and
``attempt_counts_hourly``/``attempt_totals_hourly`` count the rows of ``event_log``,
``delivery_jobs`` and ``delivery_attempts`` per tenant and UTC hour, per subscription and in total
(see hub/dataplane/rollups.py). A statement-level ``AFTER INSERT`` trigger on each raw table reads the
statement's inserted rows (its transition table), groups them by rollup key and adds them with
one ``INSERT ... ON CONFLICT DO UPDATE`` (one trigger per rollup), in the writer's transaction: a batch and its counts
commit together or not at all. The keys are upserted in sorted order, so two writers adding to the
same rows take their locks in the same order (they wait, they never deadlock).

The triggers are created before the backfill: creating them locks each raw table against writes
until this migration commits, so the backfill sees every row written before it and none is
counted twice.

Revision ID: 0011
Revises: 0010
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0011"
down_revision = "0010"
branch_labels = None
depends_on = None

NO_SUBSCRIPTION = "'00000000-0000-0000-0000-000000000000'::uuid"

# (raw table, rollup, SELECT of the rollup's rows from a relation named ``counted``, conflict update)
ROLLUPS = (
    ("event_log", "event_counts_hourly",
     "SELECT tenant_id, date_trunc('hour', received_at, 'UTC'), coalesce(delegated_scope, ''), count(*)"
     "  FROM counted GROUP BY 1, 2, 3 ORDER BY 1, 2, 3",
     "(tenant_id, hour, delegated_scope, events)",
     "(tenant_id, hour, delegated_scope) DO UPDATE SET events = r.events + EXCLUDED.events"),
    ("delivery_jobs", "job_counts_hourly",
     "SELECT tenant_id, date_trunc('hour', created_at, 'UTC'), subscription_id, count(*)"
     "  FROM counted GROUP BY 1, 2, 3 ORDER BY 1, 2, 3",
     "(tenant_id, hour, subscription_id, jobs)",
     "(tenant_id, hour, subscription_id) DO UPDATE SET jobs = r.jobs + EXCLUDED.jobs"),
    ("delivery_jobs", "job_totals_hourly",
     "SELECT tenant_id, date_trunc('hour', created_at, 'UTC'), count(*) FROM counted GROUP BY 1, 2 ORDER BY 1, 2",
     "(tenant_id, hour, jobs)", "(tenant_id, hour) DO UPDATE SET jobs = r.jobs + EXCLUDED.jobs"),
    ("delivery_attempts", "attempt_counts_hourly",
     f"SELECT tenant_id, date_trunc('hour', attempted_at, 'UTC'), coalesce(subscription_id, {NO_SUBSCRIPTION}),"
     "       outcome, count(*), max(attempted_at)"
     "  FROM counted GROUP BY 1, 2, 3, 4 ORDER BY 1, 2, 3, 4",
     "(tenant_id, hour, subscription_id, outcome, attempts, last_attempted_at)",
     "(tenant_id, hour, subscription_id, outcome) DO UPDATE SET attempts = r.attempts + EXCLUDED.attempts,"
     " last_attempted_at = GREATEST(r.last_attempted_at, EXCLUDED.last_attempted_at)"),
    ("delivery_attempts", "attempt_totals_hourly",
     "SELECT tenant_id, date_trunc('hour', attempted_at, 'UTC'), outcome, count(*)"
     "  FROM counted GROUP BY 1, 2, 3 ORDER BY 1, 2, 3",
     "(tenant_id, hour, outcome, attempts)",
     "(tenant_id, hour, outcome) DO UPDATE SET attempts = r.attempts + EXCLUDED.attempts"),
)


def _upsert(rollup: str, select: str, columns: str, conflict: str, source: str) -> str:
    return (f"INSERT INTO {rollup} AS r {columns} {select.replace('FROM counted', f'FROM {source}')}"
            f" ON CONFLICT {conflict}")


def _hour() -> sa.Column:
    return sa.Column("hour", sa.DateTime(timezone=True), nullable=False)


def _create_rollup_tables() -> None:
    op.create_table(
        "event_counts_hourly",
        sa.Column("tenant_id", sa.String(), nullable=False), _hour(),
        sa.Column("delegated_scope", sa.String(), nullable=False),
        sa.Column("events", sa.BigInteger(), nullable=False),
        sa.PrimaryKeyConstraint("tenant_id", "hour", "delegated_scope"),
    )
    op.create_table(
        "job_counts_hourly",
        sa.Column("tenant_id", sa.String(), nullable=False), _hour(),
        sa.Column("subscription_id", sa.Uuid(), nullable=False),
        sa.Column("jobs", sa.BigInteger(), nullable=False),
        sa.PrimaryKeyConstraint("tenant_id", "hour", "subscription_id"),
    )
    op.create_table(
        "attempt_counts_hourly",
        sa.Column("tenant_id", sa.String(), nullable=False), _hour(),
        sa.Column("subscription_id", sa.Uuid(), nullable=False),
        sa.Column("outcome", sa.String(), nullable=False),
        sa.Column("attempts", sa.BigInteger(), nullable=False),
        sa.Column("last_attempted_at", sa.DateTime(timezone=True), nullable=False),
        sa.PrimaryKeyConstraint("tenant_id", "hour", "subscription_id", "outcome"),
    )
    op.create_table(
        "job_totals_hourly",
        sa.Column("tenant_id", sa.String(), nullable=False), _hour(),
        sa.Column("jobs", sa.BigInteger(), nullable=False),
        sa.PrimaryKeyConstraint("tenant_id", "hour"),
    )
    op.create_table(
        "attempt_totals_hourly",
        sa.Column("tenant_id", sa.String(), nullable=False), _hour(),
        sa.Column("outcome", sa.String(), nullable=False),
        sa.Column("attempts", sa.BigInteger(), nullable=False),
        sa.PrimaryKeyConstraint("tenant_id", "hour", "outcome"),
    )


def upgrade() -> None:
    _create_rollup_tables()
    for table, rollup, select, columns, conflict in ROLLUPS:
        op.execute(f"""
CREATE FUNCTION {rollup}_add() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  {_upsert(rollup, select, columns, conflict, "inserted")};
  RETURN NULL;
END $$""")
        op.execute(f"CREATE TRIGGER {rollup}_add AFTER INSERT ON {table} REFERENCING NEW TABLE AS inserted"
                   f" FOR EACH STATEMENT EXECUTE FUNCTION {rollup}_add()")
    for table, rollup, select, columns, conflict in ROLLUPS:
        op.execute(_upsert(rollup, select, columns, conflict, table))


def downgrade() -> None:
    for table, rollup, *_ in ROLLUPS:
        op.execute(f"DROP TRIGGER {rollup}_add ON {table}")
        op.execute(f"DROP FUNCTION {rollup}_add()")
        op.drop_table(rollup)

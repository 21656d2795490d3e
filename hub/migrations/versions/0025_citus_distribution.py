"""Citus (issue 52, N107, docs/scaling.md): the tenant tables distributed by ``tenant_id``, colocated; the small
shared ones reference tables; the rest stay on the coordinator. A no-op on plain PostgreSQL.

Runs only where ``citus`` is an extension of the database. Citus needs the distribution column in every unique
constraint: ``delivery_jobs``, ``delivery_attempts`` and ``delivery_recoveries`` have their primary key widened
from ``(id)`` to ``(tenant_id, id)`` here (ids are random UUIDs, unique on their own; no statement upserts on
them by ``ON CONFLICT (id)`` except the poison attempt, see N107), and keep a plain index on ``id`` for the
claim's and the settle's lookups by id. Tables whose upserts name a key without the tenant
(``ON CONFLICT (subscription_id)`` …) are left on the coordinator: distributing them changes their statements.

Revision ID: 0025
Revises: 0024
"""

from __future__ import annotations

from alembic import op

revision = "0025"
down_revision = "0024"
branch_labels = None
depends_on = None

# Distributed by tenant_id, colocated with event_log. Order matters: a trigger's target before the table whose
# trigger writes it (the rollups, broker_events), so each trigger's insert lands on a colocated shard.
DISTRIBUTED = (
    "event_log", "event_counts_hourly", "job_counts_hourly", "job_totals_hourly", "attempt_counts_hourly",
    "attempt_totals_hourly", "pull_eligibility_hourly", "broker_events", "broker_topic_configs", "tenant_counters",
    "idempotency_records", "rate_limit_windows", "consumer_relay_cursors", "delivery_jobs", "delivery_attempts",
    "delivery_recoveries",
)
# Primary keys widened by the tenant (Citus's rule), with the index on id the lookups by id use.
WIDENED = ("delivery_jobs", "delivery_attempts", "delivery_recoveries")
# Small, shared by every tenant, read with the tenant tables: a copy on every node.
REFERENCE = ("catalog_producers", "catalog_events", "subscriptions", "subscription_versions")


def _citus() -> bool:
    """Whether this database has the Citus extension."""
    return op.get_bind().exec_driver_sql("SELECT 1 FROM pg_extension WHERE extname = 'citus'").first() is not None


def _prepare() -> None:
    # Triggers (the hourly rollups, the broker projection) go with their tables; their targets are colocated.
    # Sequential: the tables were created in this transaction, on the coordinator's one connection.
    op.execute("SET LOCAL citus.enable_unsafe_triggers = on")
    op.execute("SET LOCAL citus.multi_shard_modify_mode = 'sequential'")


def upgrade() -> None:
    if not _citus():
        return
    _prepare()
    for table in WIDENED:
        op.execute(f"ALTER TABLE {table} DROP CONSTRAINT {table}_pkey, ADD PRIMARY KEY (tenant_id, id)")
        op.execute(f"CREATE INDEX ix_{table}_id ON {table} (id)")
    for table in REFERENCE:
        op.execute(f"SELECT create_reference_table('{table}')")
    op.execute("SELECT create_distributed_table('event_log', 'tenant_id')")
    for table in DISTRIBUTED[1:]:
        op.execute(f"SELECT create_distributed_table('{table}', 'tenant_id', colocate_with => 'event_log')")


def downgrade() -> None:
    if not _citus():
        return
    _prepare()
    for table in (*reversed(DISTRIBUTED), *reversed(REFERENCE)):
        # A table undistributed with another through their foreign key (the catalog's two) is skipped.
        op.execute(f"SELECT undistribute_table(table_name, cascade_via_foreign_keys => true) FROM citus_tables "
                   f"WHERE table_name = '{table}'::regclass")
    for table in WIDENED:
        op.execute(f"DROP INDEX ix_{table}_id")
        op.execute(f"ALTER TABLE {table} DROP CONSTRAINT {table}_pkey, ADD PRIMARY KEY (id)")

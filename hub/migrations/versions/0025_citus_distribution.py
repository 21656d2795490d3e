"""Citus (issue 52, N107, docs/scaling.md): the tenant tables distributed by ``tenant_id``, colocated; the small
shared ones reference tables; the rest stay on the coordinator. A no-op on plain PostgreSQL.

Runs only where ``citus`` is an extension of the database. Citus needs the distribution column in every unique
constraint: ``delivery_jobs``, ``delivery_attempts`` and ``delivery_recoveries`` have their primary key widened
from ``(id)`` to ``(tenant_id, id)`` here (ids are random UUIDs, unique on their own; no statement upserts on
them by ``ON CONFLICT (id)`` except the poison attempt, see N107), and keep a plain index on ``id`` for the
claim's and the settle's lookups by id. Tables whose upserts name a key without the tenant
(``ON CONFLICT (subscription_id)`` …) are left on the coordinator: distributing them changes their statements.

The statement triggers that keep the hourly rollups and the broker projection (transition tables ``inserted`` /
``gone``) fire on a worker's shard; their statement, naming the distributed table, would be planned by Citus
as a distributed INSERT … SELECT, which cannot read the transition table ("could not find named tuplestore").
On Citus each writes the colocated shard of its target instead (``hub_colocated_shard``): same rows, same
transaction, never another node.

Revision ID: 0025
Revises: 0024
"""

from __future__ import annotations

import re

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
# Statement triggers' functions and the table each writes (colocated with the table it fires on).
TRIGGER_TARGETS = {
    "event_counts_hourly_add": "event_counts_hourly", "job_counts_hourly_add": "job_counts_hourly",
    "job_totals_hourly_add": "job_totals_hourly", "attempt_counts_hourly_add": "attempt_counts_hourly",
    "attempt_totals_hourly_add": "attempt_totals_hourly", "broker_events_follow_log": "broker_events",
}
# The shard of ``target`` colocated with the shard a trigger fires on (its name ends in the shard id).
COLOCATED_SHARD_SQL = r"""
CREATE FUNCTION hub_colocated_shard(target regclass, fired_on name) RETURNS text LANGUAGE sql STABLE AS $$
  SELECT format('%I.%I', n.nspname, c.relname || '_' || t.shardid)
    FROM pg_dist_shard AS s
    JOIN pg_dist_shard AS t ON t.logicalrelid = target AND t.shardminvalue = s.shardminvalue
    JOIN pg_class AS c ON c.oid = target JOIN pg_namespace AS n ON n.oid = c.relnamespace
   WHERE s.shardid = (regexp_match(fired_on, '_(\d+)$'))[1]::bigint
$$"""
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


def _body(function: str) -> str:
    """A trigger function's PL/pgSQL source."""
    return op.get_bind().exec_driver_sql(f"SELECT prosrc FROM pg_proc WHERE proname = '{function}'").scalar_one()


def _replace_body(function: str, body: str) -> None:
    op.execute(f"CREATE OR REPLACE FUNCTION {function}() RETURNS trigger LANGUAGE plpgsql AS $body${body}$body$")


def _to_shard(function: str, target: str) -> None:
    """The trigger's one statement run by EXECUTE on the colocated shard of ``target``."""
    body = _body(function)
    found = re.search(rf"((?:INSERT INTO|DELETE FROM) ){target}\b(.*?);", body, re.S)
    assert found, f"{function}: no statement on {target}"
    statement = (found.group(1) + "%s" + found.group(2)).replace("'", "''")
    dynamic = f"EXECUTE format('{statement}', hub_colocated_shard('{target}', TG_TABLE_NAME));"
    _replace_body(function, body[:found.start()] + dynamic + body[found.end():])


def _from_shard(function: str, target: str) -> None:
    """Undoes ``_to_shard``: the statement names ``target`` again."""
    body = _body(function)
    found = re.search(r"EXECUTE format\('(.*?)', hub_colocated_shard\([^)]*\)\);", body, re.S)
    assert found, f"{function}: not rewritten"
    statement = found.group(1).replace("''", "'").replace("%s", target, 1)
    _replace_body(function, body[:found.start()] + statement + ";" + body[found.end():])


def upgrade() -> None:
    if not _citus():
        return
    _prepare()
    op.execute(COLOCATED_SHARD_SQL)
    for function, target in TRIGGER_TARGETS.items():
        _to_shard(function, target)
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
    for function, target in TRIGGER_TARGETS.items():
        _from_shard(function, target)
    op.execute("DROP FUNCTION hub_colocated_shard(regclass, name)")
    for table in WIDENED:
        op.execute(f"DROP INDEX ix_{table}_id")
        op.execute(f"ALTER TABLE {table} DROP CONSTRAINT {table}_pkey, ADD PRIMARY KEY (id)")

"""On Citus (issue 52, N107): migration 0025's distribution, and which hot-path statements are router plans.

A router statement runs on one shard of one worker: Citus's EXPLAIN shows ``Task Count: 1``. The fair claim
(``workers/deliver/lanes.py``) and the settle (``workers/deliver/store.py``) are checked as they stand on plain
PostgreSQL (spanning tenants) and as a shard group's (N109: ``GROUP_CLAIM_SQL``, ``GROUP_SETTLE_SQL``, its tenants
named at every read and update of ``delivery_jobs``), which is how ``hub deliver`` runs them on Citus.
"""

from __future__ import annotations

import re
import uuid
from datetime import UTC, datetime, timedelta

import psycopg
import pytest

from hub.dataplane.models import DeliveryJob, JobPriority, JobState
from hub.tableshape import pg_types
from workers.deliver import store
from workers.deliver.lanes import LaneCursor
from workers.ingest import job_rows
from workers.ingest.store import POISON_ATTEMPT_SQL

DISTRIBUTED = {"event_log", "delivery_jobs", "delivery_attempts", "delivery_recoveries", "broker_events",
               "broker_topic_configs", "tenant_counters", "idempotency_records", "rate_limit_windows",
               "consumer_relay_cursors", "pull_eligibility_hourly", "event_counts_hourly", "job_counts_hourly",
               "job_totals_hourly", "attempt_counts_hourly", "attempt_totals_hourly"}
REFERENCE = {"catalog_producers", "catalog_events", "subscriptions", "subscription_versions"}

def explain(url: str, sql: str, params: dict) -> str:
    """Citus's plan of ``sql``, the parameters inlined (as a router decision sees constants)."""
    with psycopg.connect(url, autocommit=True, cursor_factory=psycopg.ClientCursor) as conn:
        return "\n".join(row[0] for row in conn.execute(f"EXPLAIN {sql}", params))


def task_count(plan: str) -> int:
    """The number of shard tasks in a Citus plan."""
    found = re.search(r"Task Count: (\d+)", plan)
    assert found, plan
    return int(found.group(1))


def claim_params(tenants: list[str]) -> dict:
    return {**LaneCursor().params(limit=500, bulk=100, lease=30.0), "tenants": tenants}


def tenants_by_shard(url: str, count: int = 64) -> dict[int, list[str]]:
    """Fresh tenant ids grouped by the ``delivery_jobs`` shard each hashes to."""
    shards: dict[int, list[str]] = {}
    with psycopg.connect(url) as conn:
        for tenant in (f"t-{uuid.uuid4().hex[:12]}" for _ in range(count)):
            (shard,) = conn.execute("SELECT get_shard_id_for_distribution_column('delivery_jobs', %s::text)",
                                    (tenant,)).fetchone()
            shards.setdefault(shard, []).append(tenant)
    return shards


def copy_due_jobs(conn: psycopg.Connection, tenant: str, count: int) -> set[uuid.UUID]:
    """``count`` due live jobs of one subscription of ``tenant``, through ingest's COPY statement."""
    now, sub = datetime.now(UTC), uuid.uuid4()
    ids = [uuid.uuid4() for _ in range(count)]
    with conn.cursor().copy(job_rows.COPY_SQL) as copy:
        copy.set_types(list(pg_types(DeliveryJob, *job_rows.COLUMNS)))
        for seq, job_id in enumerate(ids, 1):
            copy.write_row((job_id, tenant, sub, seq, JobState.pending.value, 0, now - timedelta(seconds=1), None,
                            "", now, now, JobPriority.live.value, None))
    return set(ids)


def test_tenant_tables_are_distributed_by_tenant_and_colocated(citus_url: str) -> None:
    with psycopg.connect(citus_url) as conn:
        rows = conn.execute("SELECT table_name::text, citus_table_type, distribution_column, colocation_id "
                            "FROM citus_tables").fetchall()
        keys = conn.execute("SELECT conrelid::regclass::text, pg_get_constraintdef(oid) FROM pg_constraint "
                            "WHERE contype = 'p' AND conrelid::regclass::text = ANY(%s)",
                            (["delivery_jobs", "delivery_attempts", "delivery_recoveries"],)).fetchall()
    distributed = {name: colocation for name, kind, column, colocation in rows
                   if kind == "distributed" and column == "tenant_id"}
    assert set(distributed) == DISTRIBUTED
    assert len(set(distributed.values())) == 1  # one colocation group: a tenant's rows of every table together
    assert {name for name, kind, _, _ in rows if kind == "reference"} == REFERENCE
    assert dict(keys) == dict.fromkeys(["delivery_jobs", "delivery_attempts", "delivery_recoveries"],
                                       "PRIMARY KEY (tenant_id, id)")


def test_the_fair_claim_as_it_stands_spans_tenants_and_citus_refuses_it(citus_url: str) -> None:
    """Its loose scan visits lanes across tenants from a cursor: a recursive CTE with no tenant filter."""
    with pytest.raises(psycopg.errors.FeatureNotSupported,
                       match="recursive CTEs are only supported when they contain a filter on the distribution"):
        explain(citus_url, store.CLAIM_SQL, claim_params([]))


def test_the_fair_claim_for_one_tenant_is_a_router_statement(citus_url: str) -> None:
    plan = explain(citus_url, store.GROUP_CLAIM_SQL, claim_params(["t-one"]))
    assert task_count(plan) == 1
    assert "ix_delivery_jobs_lane" in plan  # still the loose index scan, on the tenant's shard


def test_the_fair_claim_for_one_shards_tenants_stays_on_that_shard(citus_url: str) -> None:
    shards = tenants_by_shard(citus_url)
    together = next(tenants for tenants in shards.values() if len(tenants) >= 2)
    assert task_count(explain(citus_url, store.GROUP_CLAIM_SQL, claim_params(together))) == 1
    apart = [tenants[0] for tenants in list(shards.values())[:2]]
    with pytest.raises(psycopg.errors.FeatureNotSupported, match="recursive CTEs"):
        explain(citus_url, store.GROUP_CLAIM_SQL, claim_params(apart))


def test_one_tenants_claim_settle_and_attempts_run_on_citus(citus_url: str) -> None:
    """Ingest's job COPY, the one-tenant claim, the one-tenant settle and the attempts' COPY, executed."""
    tenant = f"t-{uuid.uuid4().hex[:12]}"
    with psycopg.connect(citus_url) as conn:
        written = copy_due_jobs(conn, tenant, 5)
        copy_due_jobs(conn, f"t-{uuid.uuid4().hex[:12]}", 5)  # another tenant's, not to be claimed
        conn.commit()
        rows = conn.execute(store.GROUP_CLAIM_SQL, claim_params([tenant])).fetchall()
        claimed = [store.ClaimedJob(*row[:len(store.ClaimedJob._fields)]) for row in rows]
        assert {job.id for job in claimed} == written
        lease = rows[0][-3]
        now = datetime.now(UTC)
        ids = sorted(written, key=lambda job_id: job_id.int)
        settled = conn.execute(store.GROUP_SETTLE_SQL, {
            "now": now, "ids": ids, "states": [JobState.delivered.value] * 5, "attempts": [1] * 5,
            "next_at": [now] * 5, "errors": [""] * 5, "leases": [lease] * 5, "tenants": [tenant]}, binary=True)
        assert {row[0] for row in settled.fetchall()} == written
        with conn.cursor().copy(f"COPY delivery_attempts ({store.ATTEMPT_COLUMNS}) FROM STDIN (FORMAT BINARY)") as copy:
            copy.set_types(list(store.ATTEMPT_TYPES))
            for job in claimed:
                copy.write_row(store.AttemptRow(uuid.uuid4(), job.id, tenant, job.subscription_id, "webhook",
                                                job.event_seq, 1, "success", 200, "", "", 5, now))
        conn.commit()
        (attempts,) = conn.execute("SELECT count(*) FROM delivery_attempts WHERE tenant_id = %s", (tenant,)).fetchone()
        # The rollup triggers fired on the shards and wrote their colocated shards (migration 0025).
        (jobs,) = conn.execute("SELECT sum(jobs) FROM job_totals_hourly WHERE tenant_id = %s", (tenant,)).fetchone()
        (counted,) = conn.execute("SELECT sum(attempts) FROM attempt_totals_hourly WHERE tenant_id = %s",
                                  (tenant,)).fetchone()
    assert (attempts, jobs, counted) == (5, 5, 5)


def test_the_settle_spans_every_shard_unless_restricted_to_a_tenant(citus_url: str) -> None:
    """As it stands the settle names its jobs by id alone: Citus sends it to every shard."""
    now = datetime.now(UTC)
    params = {"now": now, "ids": [uuid.uuid4()], "states": ["delivered"], "attempts": [1], "next_at": [now],
              "errors": [""], "leases": [now], "tenants": ["t-one"]}
    as_is, one = (re.sub(r"\)b::", ")s::", sql) for sql in (store.SETTLE_SQL, store.GROUP_SETTLE_SQL))
    with psycopg.connect(citus_url) as conn:
        (shards,) = conn.execute("SELECT shard_count FROM citus_tables WHERE table_name = 'delivery_jobs'::regclass"
                                 ).fetchone()
    assert task_count(explain(citus_url, as_is, params)) == shards
    assert task_count(explain(citus_url, one, params)) == 1


def test_one_tenants_job_and_attempt_inserts_are_router_statements(citus_url: str) -> None:
    """The rows ingest and the settle COPY, as an INSERT (EXPLAIN takes no COPY): one shard for one tenant."""
    now, sub = datetime.now(UTC), uuid.uuid4()
    jobs = [(uuid.uuid4(), "t-one", sub, seq, "pending", 0, now, None, "", now, now, 1, None) for seq in (1, 2, 3)]
    attempts = [(uuid.uuid4(), job[0], "t-one", sub, "webhook", job[3], 1, "success", 200, "", "", 5, now)
                for job in jobs]
    for columns, rows in ((job_rows.COPY_COLUMNS, jobs), (store.ATTEMPT_COLUMNS, attempts)):
        values = ", ".join("(" + ", ".join(["%s"] * len(row)) + ")" for row in rows)
        table = "delivery_jobs" if rows is jobs else "delivery_attempts"
        params = {str(i): value for i, value in enumerate(v for row in rows for v in row)}
        named = re.sub(r"%s", lambda _m, n=iter(range(len(params))): f"%({next(n)})s", values)
        assert task_count(explain(citus_url, f"INSERT INTO {table} ({columns}) VALUES {named}", params)) == 1


def test_a_poison_attempt_is_recorded_once_on_citus(citus_url: str) -> None:
    """Ingest's poison attempt names no conflict target: on Citus the key is (tenant_id, id)."""
    attempt, tenant = uuid.uuid4(), f"t-{uuid.uuid4().hex[:12]}"
    with psycopg.connect(citus_url) as conn:
        for _ in range(2):
            conn.execute(POISON_ATTEMPT_SQL, (attempt, tenant, "decode", datetime.now(UTC)))
        (count,) = conn.execute("SELECT count(*) FROM delivery_attempts WHERE tenant_id = %s", (tenant,)).fetchone()
    assert count == 1

"""The engine's bookkeeping statements keep their index plans under statistics that mislead.

While a backlog drains, ANALYZE sees a ``delivery_jobs`` in which nearly every lease is NULL. A
settle that named its lease token as a constant was then planned as one scan of the whole primary
key (the token "matches one row") joined by comparison to every settled job: 150-600 ms a batch in
the deliver bench. These tests build that state in a transaction that is rolled back (the shared
scratch database never sees the rows) and read the plan PostgreSQL really runs.
"""

from __future__ import annotations

import uuid
from datetime import UTC, datetime, timedelta
from typing import Any

import psycopg
from workers.deliver import store

JOBS = 20_000
BATCH = 500


def scans_of(plan: dict[str, Any], relation: str) -> list[dict[str, Any]]:
    """Every scan node of ``relation`` in an EXPLAIN (FORMAT JSON) plan tree."""
    found = [plan] if plan.get("Relation Name") == relation and "Scan" in plan["Node Type"] else []
    for child in plan.get("Plans", ()):
        found += scans_of(child, relation)
    return found


def drained_backlog_with_a_claimed_batch(conn: psycopg.Connection) -> tuple[list[uuid.UUID], datetime]:
    """Jobs mostly delivered (lease NULL), statistics taken, then one batch claimed; returns its ids and lease.

    Job ids ascend with insertion order, as ingest's UUIDv7 ids do: the primary key then correlates with the
    heap, which is what makes a whole-key scan look cheap. The batch's jobs came due a day ago, so the claim
    takes them before any other test's leftovers."""
    tenant, sub = f"plan-{uuid.uuid4().hex[:8]}", uuid.uuid4()
    conn.execute("""
        INSERT INTO delivery_jobs (id, tenant_id, subscription_id, event_seq, state, attempts, next_attempt_at,
                                   last_error_class, created_at, updated_at)
        SELECT lpad(to_hex(g), 32, '0')::uuid, %(tenant)s, %(sub)s, g,
               CASE WHEN g <= %(batch)s THEN 'pending' ELSE 'delivered' END, 0,
               CASE WHEN g <= %(batch)s THEN now() - interval '1 day' ELSE now() END, '', now(), now()
          FROM generate_series(1, %(jobs)s) AS g""", {"tenant": tenant, "sub": sub, "batch": BATCH, "jobs": JOBS})
    conn.execute("ANALYZE delivery_jobs")
    rows = conn.execute(store.CLAIM_SQL, {"limit": BATCH, "lease": 60}).fetchall()
    assert all(row[1] == tenant for row in rows)
    return [row[0] for row in rows], rows[0][7]


def settle_plan(conn: psycopg.Connection, ids: list[uuid.UUID], lease: datetime) -> dict[str, Any]:
    later = datetime.now(UTC) + timedelta(seconds=5)
    conn.execute(store.INDEX_LOOKUPS_SQL)
    [(explained,)] = conn.execute("EXPLAIN (ANALYZE, FORMAT JSON) " + store.SETTLE_SQL, (
        datetime.now(UTC), ids, ["delivered"] * len(ids), [1] * len(ids), [later] * len(ids), [""] * len(ids),
        [lease] * len(ids))).fetchall()
    return explained[0]["Plan"]


def test_settle_looks_each_job_up_by_id_under_null_heavy_statistics(deliver_db: str) -> None:
    """The settle's lease guard (a killed worker's batch is recorded once) updates exactly the batch, through one
    primary-key lookup per job."""
    with psycopg.connect(deliver_db) as conn:
        try:
            ids, lease = drained_backlog_with_a_claimed_batch(conn)
            plan = settle_plan(conn, ids, lease)
        finally:
            conn.rollback()
    assert plan["Actual Rows"] == BATCH
    [scan] = scans_of(plan, "delivery_jobs")
    assert scan["Node Type"] == "Index Scan" and scan["Index Name"] == "delivery_jobs_pkey"
    assert "Index Cond" in scan, "a primary-key scan without a condition reads the whole table"
    assert scan["Actual Loops"] * scan["Actual Rows"] == BATCH
    assert scan.get("Rows Removed by Filter", 0) == 0

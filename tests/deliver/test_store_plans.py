"""The engine's claim and settle stay bounded by their batch under statistics that mislead the planner.

Two states of ``delivery_jobs`` misled PostgreSQL in the deliver bench (auto_explain): statistics taken
while a backlog drains (nearly every lease NULL), and statistics taken just after the table was emptied
(a table of "one row"). Both made it scan the whole table around each batch and compare every job with
every job of the batch: 0.15-8.5 s a statement. Each test builds one such state in a transaction that
is rolled back (the shared scratch database never sees its rows) and reads the plans PostgreSQL really
runs.
"""

from __future__ import annotations

import re
import uuid
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from typing import Any

import psycopg
import pytest

from workers.deliver import store
from workers.deliver.lanes import LaneCursor

JOBS = 20_000
BATCH = 500


def nodes(plan: dict[str, Any]) -> Iterator[dict[str, Any]]:
    yield plan
    for child in plan.get("Plans", ()):
        yield from nodes(child)


def assert_bounded_by_the_batch(plan: dict[str, Any]) -> None:
    """Every scan of delivery_jobs has an index condition (or names its rows) and reads about a batch; no join
    compares all pairs."""
    for node in nodes(plan):
        assert node.get("Rows Removed by Join Filter", 0) == 0, "a join compared every pair"
        if node.get("Relation Name") == "delivery_jobs" and "Scan" in node["Node Type"]:
            # A bitmap scan rechecks its index's condition; a TID scan goes straight to the rows it names.
            condition = node.get("Index Cond") or node.get("Recheck Cond") or node.get("TID Cond")
            assert condition, f"{node['Node Type']} of delivery_jobs without an index condition"
            assert node["Actual Rows"] * node["Actual Loops"] <= 4 * BATCH


def insert_jobs(conn: psycopg.Connection) -> None:
    """JOBS jobs of a new tenant, ids ascending with insertion (as ingest's UUIDv7); the first 2 x BATCH
    came due a day ago (so a claim takes them before any other test's leftovers), the rest are delivered."""
    conn.execute("""
        INSERT INTO delivery_jobs (id, tenant_id, subscription_id, event_seq, state, attempts, next_attempt_at,
                                   last_error_class, created_at, updated_at)
        SELECT lpad(to_hex(g), 32, '0')::uuid, %(tenant)s, %(sub)s, g,
               CASE WHEN g <= 2 * %(batch)s THEN 'pending' ELSE 'delivered' END, 0,
               CASE WHEN g <= 2 * %(batch)s THEN now() - interval '1 day' ELSE now() END, '', now(), now()
          FROM generate_series(1, %(jobs)s) AS g""",
                 {"tenant": f"plan-{uuid.uuid4().hex[:8]}", "sub": uuid.uuid4(), "batch": BATCH, "jobs": JOBS})


def drained(conn: psycopg.Connection) -> None:
    insert_jobs(conn)
    conn.execute("ANALYZE delivery_jobs")


def emptied(conn: psycopg.Connection) -> None:
    conn.execute("TRUNCATE delivery_jobs")
    conn.execute("ANALYZE delivery_jobs")
    insert_jobs(conn)


# The named parameters of the claim and the settle, in the order their tests pass them.
CLAIM_PARAMS = ("limit", "lease", "bulk", "capped", "caps", "lanes", "lane_max", "after_t", "after_s", "weight_tenants",
                "weights")
NAMED = {name: n for n, name in enumerate(CLAIM_PARAMS, start=1)} | {
    name: n for n, name in enumerate(("now", "ids", "states", "attempts", "next_at", "errors", "leases"), start=1)}


def positional(sql: str) -> str:
    """The statement with PostgreSQL's own $n placeholders, for PREPARE (text ``%s`` and binary ``%b`` alike; a
    named one by :data:`NAMED`, the same $n wherever it appears)."""
    sql = re.sub(r"%\((\w+)\)[sb]", lambda match: f"${NAMED[match.group(1)]}", sql)
    parts = re.split("%[sb]", sql)
    return "".join(part + (f"${n}" if n < len(parts) else "") for n, part in enumerate(parts, start=1))


def claim_params(limit: int, lease: float, bulk: int) -> list[Any]:
    """The prepared claim's parameters, in :data:`CLAIM_PARAMS` order: no lane left out, from the start."""
    params = LaneCursor(lane_max=limit).params(limit=limit, lease=lease, bulk=bulk)
    return [params[name] for name in CLAIM_PARAMS]


def run_prepared(conn: psycopg.Connection, prefix: str, statement: str, params: list[Any]) -> list[tuple]:
    """``<prefix> EXECUTE statement(params)``, the parameters bound on the client (EXECUTE takes no others)."""
    placeholders = ", ".join(["%s"] * len(params))
    with psycopg.ClientCursor(conn) as cursor:
        cursor.execute(f"{prefix} EXECUTE {statement}({placeholders})", params)
        return cursor.fetchall()


def explain(conn: psycopg.Connection, statement: str, params: list[Any]) -> dict[str, Any]:
    """EXPLAIN ANALYZE of an EXECUTE of a prepared statement (the plan the engine's connections reuse)."""
    conn.execute(store.INDEX_LOOKUPS_SQL)
    [(explained,)] = run_prepared(conn, "EXPLAIN (ANALYZE, FORMAT JSON)", statement, params)
    return explained[0]["Plan"]


def settle_params(ids: list[uuid.UUID], lease: datetime | None) -> list[Any]:
    later = datetime.now(UTC) + timedelta(seconds=5)
    return [datetime.now(UTC), ids, ["delivered"] * len(ids), [1] * len(ids), [later] * len(ids),
            [""] * len(ids), [lease] * len(ids)]


def grown_after_planning(conn: psycopg.Connection) -> None:
    """Plans made while the table held a handful of jobs (the engine's connections prepare their statements
    and reuse one generic plan), executed once it holds thousands."""
    conn.execute("TRUNCATE delivery_jobs")
    conn.execute("ANALYZE delivery_jobs")
    conn.execute("SET LOCAL plan_cache_mode = force_generic_plan")
    conn.execute(store.INDEX_LOOKUPS_SQL)
    run_prepared(conn, "", "claim", claim_params(1, 60, 1))
    run_prepared(conn, "", "settle", settle_params([], None))
    insert_jobs(conn)


STATES = {"statistics-of-a-drained-backlog": drained, "statistics-of-an-emptied-table": emptied,
          "a-plan-made-when-the-table-was-small": grown_after_planning}


@pytest.mark.parametrize("state", list(STATES.values()), ids=list(STATES))
def test_claim_and_settle_read_only_their_batch(deliver_db: str, state) -> None:  # noqa: ANN001
    """The claim (lease, SKIP LOCKED) and the lease-guarded settle touch exactly one batch, through index
    conditions, under each misleading state."""
    with psycopg.connect(deliver_db) as conn:
        try:
            conn.execute("SET LOCAL lock_timeout = '5s'")
            # Every lane with due work shares a claim (N98): other tests' leftovers move out of the way.
            conn.execute("UPDATE delivery_jobs SET next_attempt_at = now() + interval '1 day' "
                         "WHERE state IN ('pending', 'retrying')")
            conn.execute(f"PREPARE claim AS {positional(store.CLAIM_SQL)}")
            conn.execute(f"PREPARE settle AS {positional(store.SETTLE_SQL)}")
            state(conn)
            conn.execute(store.INDEX_LOOKUPS_SQL)
            claimed = run_prepared(conn, "", "claim", claim_params(BATCH, 60, BATCH))
            claim_plan = explain(conn, "claim", claim_params(BATCH, 60, BATCH))
            settle_plan = explain(conn, "settle", settle_params([row[0] for row in claimed], claimed[0][-3]))
        finally:
            conn.rollback()
    assert len(claimed) == BATCH and claim_plan["Actual Rows"] == BATCH and settle_plan["Actual Rows"] == BATCH
    assert_bounded_by_the_batch(claim_plan)
    assert_bounded_by_the_batch(settle_plan)

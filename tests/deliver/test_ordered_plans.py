"""With 100,000 open ordered keys the claim is still one range scan of the due index, and the settle's
two ordering statements (lock the ended heads' keys, advance them) read only their batch's keys (N78).

The keys are built in the test's transaction, rolled back at the end: one statement inserts, per key,
a due head and a waiting job behind it, and the key rows naming the heads.
"""

from __future__ import annotations

import uuid
from typing import Any

import psycopg

from hub.dataplane import ordering
from tests.deliver.test_store_plans import assert_bounded_by_the_batch, claim_params, nodes, positional, run_prepared
from workers.deliver import store

KEYS = 100_000
BATCH = 500

BUILD_SQL = """
WITH jobs AS (
  INSERT INTO delivery_jobs (id, tenant_id, subscription_id, event_seq, state, attempts, next_attempt_at,
                             last_error_class, created_at, updated_at, ordering_key)
  SELECT gen_random_uuid(), %(tenant)s, %(sub)s, g, CASE WHEN g <= %(keys)s THEN 'pending' ELSE 'waiting' END, 0,
         now() - interval '10 years' + make_interval(secs => g), '', now(), now(), 'k' || (g %% %(keys)s)
    FROM generate_series(1, 2 * %(keys)s) AS g
  RETURNING id, state, ordering_key
)
INSERT INTO ordered_keys (subscription_id, ordering_key, tenant_id, head_job_id, head_since)
SELECT %(sub)s, ordering_key, %(tenant)s, id, now() FROM jobs WHERE state = 'pending'
"""


def explain(conn: psycopg.Connection, sql: str, params: dict[str, Any]) -> dict[str, Any]:
    [(explained,)] = conn.execute(f"EXPLAIN (ANALYZE, FORMAT JSON) {sql}", params).fetchall()
    return explained[0]["Plan"]


def scans_of(plan: dict[str, Any], relation: str) -> list[dict[str, Any]]:
    return [node for node in nodes(plan) if node.get("Relation Name") == relation and "Scan" in node["Node Type"]]


def test_the_claim_and_the_advance_stay_bounded_with_100k_open_keys(deliver_db: str) -> None:
    sub = uuid.uuid4()
    with psycopg.connect(deliver_db) as conn:
        try:
            conn.execute("SET LOCAL lock_timeout = '5s'")
            # Every lane with due work shares a claim (N98): other tests' leftovers move out of the way.
            conn.execute("UPDATE delivery_jobs SET next_attempt_at = now() + interval '1 day' "
                         "WHERE state IN ('pending', 'retrying')")
            conn.execute(BUILD_SQL, {"tenant": f"plan-{sub.hex[:8]}", "sub": sub, "keys": KEYS})
            conn.execute("ANALYZE delivery_jobs")
            conn.execute("ANALYZE ordered_keys")
            conn.execute(f"PREPARE claim AS {positional(store.CLAIM_SQL)}")
            conn.execute(store.INDEX_LOOKUPS_SQL)
            [(claim_plan,)] = run_prepared(conn, "EXPLAIN (ANALYZE, FORMAT JSON)", "claim", claim_params(BATCH, 60, BATCH))
            claim_plan = claim_plan[0]["Plan"]
            heads = conn.execute("SELECT subscription_id, ordering_key, id FROM delivery_jobs WHERE subscription_id = %s"
                                 " AND lease_until IS NOT NULL", (sub,)).fetchall()
            conn.execute("UPDATE delivery_jobs SET state = 'delivered' WHERE id = ANY(%s)", ([h[2] for h in heads],))
            arrays = ordering._key_arrays(ordering.EndedHead(s, k, h, False) for s, k, h in heads)
            lock_plan = explain(conn, ordering.LOCK_HEADS_SQL, arrays)
            advance_plan = explain(conn, ordering.ADVANCE_SQL, arrays)
        finally:
            conn.rollback()
    assert len(heads) == BATCH and claim_plan["Actual Rows"] == BATCH
    assert_bounded_by_the_batch(claim_plan)
    due = [node for node in nodes(claim_plan) if node.get("Index Name") == "ix_delivery_jobs_lane"]
    assert due and sum(node["Actual Rows"] * node["Actual Loops"] for node in due) <= 4 * BATCH  # range scans
    assert lock_plan["Actual Rows"] == BATCH
    for plan in (lock_plan, advance_plan):
        assert_bounded_by_the_batch(plan)
        for node in scans_of(plan, "ordered_keys"):
            assert node.get("Index Cond") and node["Actual Rows"] * node["Actual Loops"] <= 4 * BATCH, node
    assert "ix_delivery_jobs_waiting" in {node.get("Index Name") for node in nodes(advance_plan)}

"""Ordered keys' heads are claimed first, in at most half a claim (N83); live jobs before the bulk a
recovery re-enqueues (N58), and the live lane claims no bulk.

Each test works in one transaction that is rolled back: every other test's due job is moved out of
the way first, so the claim sees only the jobs the test wrote.
"""

from __future__ import annotations

import asyncio
import uuid

import psycopg

from hub.dataplane.models import JobPriority
from workers.deliver import store
from workers.deliver.main import lanes


# How long ago each kind of job came due: the heads last of all.
DUE_DAYS_AGO = {"bulk": 2, "live": 1, "head": 0}


async def _claimed(url: str, *, limit: int, bulk: int | None,
                   heads: int = 0) -> tuple[list[uuid.UUID], dict[uuid.UUID, str]]:
    """Three bulk jobs due two days ago, three live ones due one day ago, ``heads`` heads due now; the
    ids one claim takes."""
    tenant, sub = f"prio-{uuid.uuid4().hex[:8]}", uuid.uuid4()
    kinds = {uuid.uuid4(): kind for kind in ("bulk",) * 3 + ("live",) * 3 + ("head",) * heads}
    conn = await psycopg.AsyncConnection.connect(url)
    try:
        await conn.execute("UPDATE delivery_jobs SET next_attempt_at = now() + interval '1 day' "
                           "WHERE state IN ('pending', 'retrying')")
        for seq, (job_id, kind) in enumerate(kinds.items(), start=1):
            await conn.execute(
                "INSERT INTO delivery_jobs (id, tenant_id, subscription_id, event_seq, state, attempts, "
                "next_attempt_at, last_error_class, created_at, updated_at, priority) VALUES (%s, %s, %s, %s, "
                "'pending', 0, now() - make_interval(days => %s), '', now(), now(), %s)",
                (job_id, tenant, sub, seq, DUE_DAYS_AGO[kind], JobPriority[kind].value))
        claim = await store.claim(conn, limit=limit, lease_seconds=60, bulk_limit=bulk)
        return [job.id for job in claim.jobs], kinds
    finally:
        await conn.rollback()
        await conn.close()


def test_live_jobs_are_claimed_before_bulk_jobs_due_earlier(deliver_db: str) -> None:
    claimed, kinds = asyncio.run(_claimed(deliver_db, limit=4, bulk=None))
    assert sorted(kinds[job] for job in claimed) == ["bulk", "live", "live", "live"]
    earliest_bulk = next(job for job, kind in kinds.items() if kind == "bulk")
    assert earliest_bulk in claimed, "the room left after the live jobs goes to the earliest bulk job"


def test_bulk_jobs_fill_a_claim_when_no_live_job_is_due(deliver_db: str) -> None:
    claimed, kinds = asyncio.run(_claimed(deliver_db, limit=10, bulk=None))
    assert sorted(kinds[job] for job in claimed) == ["bulk"] * 3 + ["live"] * 3


def test_a_claim_takes_at_most_its_bulk_cap(deliver_db: str) -> None:
    claimed, kinds = asyncio.run(_claimed(deliver_db, limit=10, bulk=2))
    assert sorted(kinds[job] for job in claimed) == ["bulk"] * 2 + ["live"] * 3


def test_the_live_lane_claims_no_bulk_job(deliver_db: str) -> None:
    claimed, kinds = asyncio.run(_claimed(deliver_db, limit=10, bulk=0))
    assert sorted(kinds[job] for job in claimed) == ["live"] * 3


def test_heads_are_claimed_before_live_jobs_due_earlier_in_at_most_half_a_claim(deliver_db: str) -> None:
    claimed, kinds = asyncio.run(_claimed(deliver_db, limit=4, bulk=None, heads=3))
    assert sorted(kinds[job] for job in claimed) == ["head", "head", "live", "live"]
    claimed, kinds = asyncio.run(_claimed(deliver_db, limit=10, bulk=0, heads=3))
    assert sorted(kinds[job] for job in claimed) == ["head"] * 3 + ["live"] * 3, "the live lane claims heads too"


def test_a_claim_of_one_job_still_takes_a_head(deliver_db: str) -> None:
    claimed, kinds = asyncio.run(_claimed(deliver_db, limit=1, bulk=None, heads=1))
    assert [kinds[job] for job in claimed] == ["head"]


def test_the_first_of_several_pipelines_is_the_live_lane() -> None:
    assert lanes(1) == [True], "a single pipeline claims both"
    assert lanes(0) == [True]
    assert lanes(3) == [False, True, True]

"""The fair claim (N98), property-based against the real statement: every lane with due work gets its turn
in one claim, shares follow the tenants' weights over many claims, a claim never takes a job twice or
more than its limit, and lanes beyond one claim's visit take turns.

Each example works in one transaction that is rolled back, after moving every other test's due job out of
the way (as tests/deliver/test_priority.py does), so a claim sees only the lanes the example wrote.
"""

from __future__ import annotations

import asyncio
import math
import uuid
from collections import Counter

import psycopg
from hypothesis import HealthCheck, given, settings, strategies as st

from workers.deliver import store
from workers.deliver.lanes import LaneCursor, parse_weights

INSERT_SQL = """
INSERT INTO delivery_jobs (id, tenant_id, subscription_id, event_seq, state, attempts, next_attempt_at,
                           last_error_class, created_at, updated_at, priority)
SELECT gen_random_uuid(), %(tenant)s, %(sub)s, g, 'pending', 0,
       now() - make_interval(secs => g) + CASE WHEN g > %(due)s THEN interval '1 hour' ELSE interval '0' END,
       '', now(), now(), 0
  FROM generate_series(1, %(due)s + %(later)s) AS g
"""

# A lane: (tenant number, due jobs, jobs due only later).
LANES = st.lists(st.tuples(st.integers(0, 4), st.integers(0, 40), st.integers(0, 3)), min_size=1, max_size=10)
EXAMPLES = settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])


async def _lanes(conn: psycopg.AsyncConnection, lanes: list[tuple[int, int, int]], tag: str) -> dict[uuid.UUID, tuple]:
    """Write the lanes (after moving everyone else's due jobs a day on); returns subscription -> (tenant, due)."""
    await conn.execute("UPDATE delivery_jobs SET next_attempt_at = now() + interval '1 day' "
                       "WHERE state IN ('pending', 'retrying')")
    written = {}
    for tenant, due, later in lanes:
        sub = uuid.uuid4()
        await conn.execute(INSERT_SQL, {"tenant": f"{tag}-{tenant}", "sub": sub, "due": due, "later": later})
        written[sub] = (f"{tag}-{tenant}", due)
    return written


def _claims(url: str, lanes: list[tuple[int, int, int]], *, limit: int, rounds: int = 1,
            cursor: LaneCursor | None = None, tag: str = "") -> tuple[dict[uuid.UUID, tuple], list[list[store.ClaimedJob]]]:
    """The lanes written (tenant ``<tag>-<n>``), then ``rounds`` claims of ``limit`` in one rolled-back
    transaction."""
    async def run() -> tuple[dict[uuid.UUID, tuple], list[list[store.ClaimedJob]]]:
        conn = await psycopg.AsyncConnection.connect(url)
        try:
            written = await _lanes(conn, lanes, tag or f"fair-{uuid.uuid4().hex[:6]}")
            claims = []
            for _ in range(rounds):
                claim = await store.claim(conn, limit=limit, lease_seconds=60, lanes=cursor)
                claims.append(claim.jobs)
            return written, claims
        finally:
            await conn.rollback()
            await conn.close()
    return asyncio.run(run())


@EXAMPLES
@given(lanes=LANES, limit=st.integers(1, 60))
def test_one_claim_gives_every_lane_with_due_work_its_turn(deliver_db: str, lanes, limit) -> None:  # noqa: ANN001
    written, [jobs] = _claims(deliver_db, lanes, limit=limit)
    ids = [job.id for job in jobs]
    assert len(ids) == len(set(ids)) and len(ids) <= limit
    taken = Counter(job.subscription_id for job in jobs)
    assert all(taken[sub] <= due for sub, (_, due) in written.items()), "a job that was not due"
    due_lanes = [sub for sub, (_, due) in written.items() if due]
    if len(due_lanes) <= limit:
        assert all(taken[sub] >= 1 for sub in due_lanes), "a lane with due work waited for a later claim"
    shares = fair_shares(lanes, written, limit)
    if all(share >= 1 for share in shares.values()):  # each first job is within every lane's share
        for sub, (_, due) in written.items():
            assert taken[sub] >= min(due, shares[sub]), "a lane got less than its share"
    parts = fair_shares(lanes, written, limit, rounding=lambda share: math.ceil(share - 1e-9))
    beyond = [sub for sub in due_lanes if written[sub][1] > parts[sub]]
    if len(beyond) <= 1:  # the room the others left goes to the one lane with more: nothing is left unused
        assert len(ids) == min(limit, sum(due for _, due in written.values()))


def fair_shares(lanes: list[tuple[int, int, int]], written: dict[uuid.UUID, tuple], limit: int,
                rounding=math.floor) -> dict[uuid.UUID, int]:  # noqa: ANN001
    """Each visited lane's share, rounded down (or as ``rounding`` says): tenants share ``limit`` evenly (no
    weights set), and a tenant's share is split evenly across its lanes (a lane takes a share while it has a
    job due: one whose jobs are all due later takes none)."""
    visited = {sub: tenant for sub, (tenant, due) in written.items() if due}
    tenants = Counter(visited.values())
    return {sub: rounding(limit / len(tenants) / tenants[visited[sub]]) if sub in visited else 0 for sub in written}


def test_weights_hold_over_many_claims(deliver_db: str) -> None:
    """A tenant weighted 3 with one lane beside a tenant of weight 1 with two, each lane with a backlog:
    3:1 claim after claim, and the light tenant's two lanes share its part evenly."""
    tag = f"weights-{uuid.uuid4().hex[:6]}"
    cursor = LaneCursor(weights={f"{tag}-0": 3.0})
    written, claims = _claims(deliver_db, [(0, 200, 0), (1, 200, 0), (1, 200, 0)], limit=40, rounds=5,
                              cursor=cursor, tag=tag)
    for jobs in claims:
        by_tenant = Counter(job.tenant_id for job in jobs)
        assert len(jobs) == 40 and by_tenant[f"{tag}-0"] == 30 and by_tenant[f"{tag}-1"] == 10
        light = Counter(job.subscription_id for job in jobs if job.tenant_id == f"{tag}-1")
        assert sorted(light.values()) == [5, 5]


def test_lanes_beyond_one_visit_take_turns(deliver_db: str) -> None:
    """Seven lanes with due work and a visit of three lanes a claim: every lane is served within three claims."""
    cursor = LaneCursor(lanes=3)
    written, claims = _claims(deliver_db, [(i, 5, 0) for i in range(7)], limit=100, rounds=3, cursor=cursor)
    served = {job.subscription_id for jobs in claims for job in jobs}
    assert served == set(written)
    assert all(len({job.subscription_id for job in jobs}) <= 3 for jobs in claims)


def test_a_hanging_destination_takes_only_its_free_slots(deliver_db: str) -> None:
    async def run() -> tuple[dict, list]:
        conn = await psycopg.AsyncConnection.connect(deliver_db)
        try:
            written = await _lanes(conn, [(0, 50, 0), (1, 50, 0), (2, 50, 0)], f"caps-{uuid.uuid4().hex[:6]}")
            hanging, full, _ = list(written)
            claim = await store.claim(conn, limit=90, lease_seconds=60, caps={hanging: 2, full: 0})
            return written, claim.jobs
        finally:
            await conn.rollback()
            await conn.close()
    written, jobs = asyncio.run(run())
    hanging, full, healthy = list(written)
    taken = Counter(job.subscription_id for job in jobs)
    assert taken[hanging] == 2 and taken[full] == 0 and taken[healthy] == 50


def test_a_claim_that_took_a_lanes_most_says_it_is_full(deliver_db: str) -> None:
    """A lone lane with more due than a claim takes of one lane: the claim is full (its loop claims again at
    once, as on a backlog); a lane with less due than that and the limit: it is not."""
    async def run() -> tuple[store.Claim, store.Claim]:
        conn = await psycopg.AsyncConnection.connect(deliver_db)
        try:
            await _lanes(conn, [(0, 30, 0)], f"full-{uuid.uuid4().hex[:6]}")
            backlog = await store.claim(conn, limit=100, lease_seconds=60, lanes=LaneCursor(lane_max=8))
            rest = await store.claim(conn, limit=100, lease_seconds=60, lanes=LaneCursor(lane_max=50))
            return backlog, rest
        finally:
            await conn.rollback()
            await conn.close()
    backlog, rest = asyncio.run(run())
    assert len(backlog.jobs) == 8 and backlog.full
    assert len(rest.jobs) == 22 and not rest.full


def test_weights_are_parsed_from_the_setting() -> None:
    assert parse_weights(" acme=3, globex=0.5 ,") == {"acme": 3.0, "globex": 0.5}
    for bad in ("acme", "=2", "acme=0", "acme=-1"):
        try:
            parse_weights(bad)
        except ValueError:
            continue
        raise AssertionError(f"{bad!r} was accepted")

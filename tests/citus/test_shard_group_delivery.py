"""On Citus (issue 52, N109): the engine's real claim → deliver → settle, one shard group a claim.

Tenants on three shards (two of them on one) get jobs; the engine (``workers/deliver/engine.py``) delivers them to
a real HTTPS receiver on connections where Citus refuses any statement that would run on more than one shard
(``citus.multi_task_query_log_level = error``; the shard groups' read alone opts out). Every job ends delivered,
each is received once, and the claim and the settle, EXPLAINed with their parameters bound as the engine binds
them, run on one shard.
"""

from __future__ import annotations

import asyncio
import json
import re
import time
import uuid
from collections import Counter
from collections.abc import Callable
from datetime import UTC, datetime

import psycopg
import pytest

from devkit.dnsserver import DnsServer
from devkit.receiver import Receiver, Reply
from hub.config import get_settings
from tests.citus.test_router_statements import tenants_by_shard
from tests.deliver.conftest import FAST, insert_events, insert_subscription, sql
from tests.sinks.conftest import HOOK_HOST
from workers.deliver import store
from workers.deliver.engine import Engine
from workers.deliver.lanes import LaneCursor
from workers.deliver.shards import GROUPS_SQL, QUIET_SQL, ShardGroup

EVENTS = 40  # a tenant's; two subscriptions each: 80 jobs a tenant, 320 in all, batches of 100
ROUTER_ONLY = "-c citus.multi_task_query_log_level=error"


def run_engine(url: str, until: Callable[[], bool], *, pipelines: int = 2, timeout: float = 60.0) -> Engine:
    """``pipelines`` claim loops of one real engine on router-only connections, batch after batch, until
    ``until()`` holds; returns the engine."""
    engine = Engine(settings=get_settings())

    async def loop(deadline: float) -> None:
        conn = await psycopg.AsyncConnection.connect(url, options=ROUTER_ONLY, application_name="hub-deliver")
        try:
            while not until():
                assert time.monotonic() < deadline, "the engine did not deliver everything in time"
                if not (await engine.run_batch(conn)).claimed:
                    await asyncio.sleep(0.05)
        finally:
            await conn.close()

    async def go() -> None:
        try:
            await asyncio.gather(*(loop(time.monotonic() + timeout) for _ in range(pipelines)))
        finally:
            await engine.close()

    asyncio.run(go())
    return engine


def task_count(url: str, sql_text: str, params: dict) -> int:
    """Citus's task count for ``sql_text`` with ``params`` bound by the server (as the engine sends them)."""
    with psycopg.connect(url, autocommit=True) as conn:
        plan = "\n".join(row[0] for row in conn.execute(f"EXPLAIN {sql_text}", params, binary=True))
    return int(re.search(r"Task Count: (\d+)", plan).group(1))  # type: ignore[union-attr]


@pytest.fixture
def citus_db(citus_url: str, override_settings: Callable[..., None], hook_dns: DnsServer) -> str:
    """The hub pointed at the Citus coordinator's database, with the deliver tests' short settings."""
    override_settings(database_url=citus_url.replace("postgresql://", "postgresql+psycopg://", 1), **FAST)
    return citus_url


def test_jobs_of_tenants_on_several_shards_are_delivered_once_by_router_statements(citus_db: str,
                                                                                   scripted: Receiver) -> None:
    shards = tenants_by_shard(citus_db)
    pair = next(tenants for tenants in shards.values() if len(tenants) >= 2)[:2]
    tenants = pair + [group[0] for group in shards.values() if pair[0] not in group][:2]
    base = f"https://{HOOK_HOST}:{scripted.port}"
    expected: set[tuple[str, str]] = set()
    for tenant in tenants:
        subs = [insert_subscription(citus_db, tenant, f"{base}/{tenant}/{k}")[0] for k in range(2)]
        seqs = insert_events(citus_db, tenant, subs, EVENTS)
        expected |= {(f"/{tenant}/{k}", f"e-{seq}") for k in range(2) for seq in seqs}
    scripted.actions.extend([Reply(503)] * 3)  # three first tries fail: retried, still delivered once

    def all_delivered() -> bool:
        return sql(citus_db, "SELECT count(*) FROM delivery_jobs WHERE tenant_id = ANY(%s) AND state = 'delivered'",
                   (tenants,)) == [(len(expected),)]

    engine = run_engine(citus_db, all_delivered)

    # Each (subscription, event) reached the receiver once, and three of them twice (the 503s, then their retry).
    received = Counter((item.path, json.loads(item.body)["id"]) for item in scripted.received)
    assert set(received) == expected and sorted(Counter(received.values()).items()) == [(1, len(expected) - 3), (2, 3)]
    assert sql(citus_db, "SELECT state, count(*) FROM delivery_jobs WHERE tenant_id = ANY(%s) GROUP BY state",
               (tenants,)) == [("delivered", len(expected))]
    # One delivered attempt a job, and the three failed tries recorded too.
    assert sql(citus_db, "SELECT outcome, count(*), count(DISTINCT job_id) FROM delivery_attempts "
                         "WHERE tenant_id = ANY(%s) GROUP BY outcome ORDER BY outcome",
               (tenants,)) == [("delivered", len(expected), len(expected)), ("failed", 3, 3)]
    # The claims took the three shard groups (the pair shares one), each from its own place in its lanes.
    seen = {shard for shard, group in shards.items() if set(group) & set(tenants)}
    assert len(seen) == 3 and engine.shards.sharded and seen <= set(engine.lanes.places)
    assert {engine.shards.shard_of[t] for t in tenants} == seen


def test_the_group_claim_and_settle_run_on_one_shard_and_a_settle_parts_by_shard(citus_url: str) -> None:
    """The statements as the engine sends them (parameters bound, not inlined): one task each. The guard
    the delivery test relies on refuses a statement that spans shards (the settle without its tenants)."""
    shards = tenants_by_shard(citus_url)
    shard, pair = next((shard, tenants[:2]) for shard, tenants in shards.items() if len(tenants) >= 2)
    params = {**LaneCursor().params(limit=500, bulk=100, lease=30.0, group=shard), "tenants": pair}
    assert task_count(citus_url, store.GROUP_CLAIM_SQL, params) == 1
    now = datetime.now(UTC)
    settle = {"now": now, "ids": [uuid.uuid4()], "states": ["delivered"], "attempts": [1], "next_at": [now],
              "errors": [""], "leases": [now], "tenants": pair}
    assert task_count(citus_url, store.GROUP_SETTLE_SQL, settle) == 1
    with psycopg.connect(citus_url, options=ROUTER_ONLY) as conn, pytest.raises(psycopg.Error, match="multi-task"):
        conn.execute(store.SETTLE_SQL, {k: v for k, v in settle.items() if k != "tenants"}, binary=True)


def test_the_shard_groups_are_the_open_works_tenants_by_shard(citus_db: str) -> None:
    """What a claim loop reads (``GROUPS_SQL``): each tenant with open work under its own shard, once."""
    shards = tenants_by_shard(citus_db)
    pair = next(tenants for tenants in shards.values() if len(tenants) >= 2)[:2]
    for tenant in pair:
        insert_events(citus_db, tenant, [uuid.uuid4()], 1)
    with psycopg.connect(citus_db, autocommit=True) as conn:
        conn.execute(QUIET_SQL)
        groups = [ShardGroup(shard, tenants) for shard, tenants in conn.execute(GROUPS_SQL)]
    [mine] = [group for group in groups if set(pair) & set(group.tenants)]
    assert set(pair) <= set(mine.tenants) and mine.shard == next(s for s, t in shards.items() if pair[0] in t)
    assert len({t for group in groups for t in group.tenants}) == sum(len(group.tenants) for group in groups)

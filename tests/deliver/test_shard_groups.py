"""Shard groups (N109) where there are none: on plain PostgreSQL a claim and a settle span every tenant, as
before; the grouped statements, the settle's parts and the turns, checked without Citus
(tests/citus/test_shard_group_delivery.py runs them on the cluster)."""

from __future__ import annotations

import asyncio
import uuid
from datetime import UTC, datetime

import psycopg

from workers.deliver import store
from workers.deliver.lanes import ONLY, TENANTS_FILTER
from workers.deliver.shards import ShardGroup, ShardGroups
from workers.deliver.store import ClaimedJob, Settled, by_shard


LEASE = datetime(2026, 12, 7, tzinfo=UTC)


def settled(tenant: str) -> Settled:
    now = datetime.now(UTC)
    job = ClaimedJob(uuid.uuid4(), tenant, uuid.uuid4(), 1, "pending", 0, now, 1, None)
    return Settled(job, "delivered", 1, now, "", None)


def test_plain_statements_are_unchanged_and_grouped_ones_name_the_tenants_at_every_read_and_update() -> None:
    for plain, grouped in ((store.CLAIM_SQL, store.GROUP_CLAIM_SQL), (store.SETTLE_SQL, store.GROUP_SETTLE_SQL)):
        assert ONLY not in plain and "%(tenants)" not in plain and ONLY not in grouped
        assert grouped.count(TENANTS_FILTER) == plain.count("delivery_jobs") == grouped.count("delivery_jobs")
        assert grouped.replace(TENANTS_FILTER, "") == plain


def test_a_settle_is_one_part_or_one_part_a_shard_each_in_id_order() -> None:
    items = [(settled(tenant), LEASE) for tenant in ("a", "b", "c", "a", "d", "b")]
    [(tenants, whole)] = by_shard(items, None)
    assert tenants is None and [s.job.id.int for s, _ in whole] == sorted(s.job.id.int for s, _ in items)
    parts = by_shard(items, {"a": 7, "b": 3, "c": 7})
    assert [tenants for tenants, _ in parts] == [["d"], ["b"], ["a", "c"]]  # "d" has no known shard: its own part
    for tenants, part in parts:
        assert {s.job.tenant_id for s, _ in part} == set(tenants)
        assert [s.job.id.int for s, _ in part] == sorted(s.job.id.int for s, _ in part)
    assert sum(len(part) for _, part in parts) == len(items)


def test_claim_loops_take_the_groups_in_turns_each_once_a_round() -> None:
    groups = ShardGroups()
    groups.groups = [ShardGroup(shard, [f"t{shard}"]) for shard in range(5)]
    one, two = groups._round(), groups._round()  # two loops claiming at once
    taken = [next(one).shard, next(two).shard, next(one).shard, next(two).shard]
    assert len(set(taken)) == 4
    assert sorted(group.shard for group in groups._round()) == list(range(5))


def test_on_plain_postgresql_a_claim_names_no_group(deliver_db: str) -> None:
    calls: list[dict] = []

    async def claim_one(**kwargs: object) -> list:
        calls.append(kwargs)
        return []

    async def go() -> ShardGroups:
        groups = ShardGroups()
        async with await psycopg.AsyncConnection.connect(deliver_db) as conn:
            assert await groups.claim(conn, claim_one, lambda claimed: not claimed) == []
            await groups.claim(conn, claim_one, lambda claimed: not claimed)
        return groups

    groups = asyncio.run(go())
    assert calls == [{}, {}] and groups.sharded is False and groups.shard_of is None

"""Shard groups (N109): on Citus, which tenants with open work share a shard, so a claim or a settle names
one group's tenants and runs on one shard (a router statement).

``delivery_jobs`` and every table colocated with it are split into shards by a hash of ``tenant_id``; a
*shard group* is the tenants whose rows are on one shard. A claim loop claims one group a claim, the groups
in turns (:meth:`ShardGroups.claim`), and a settle names each group's jobs apart (:meth:`ShardGroups.shard_of`
for ``store.settle``). The groups are read every :data:`REFRESH_SECONDS`, and at once after a round of the
groups found nothing due (a tenant whose first job came since the last read is in none yet). On plain
PostgreSQL there are no groups: one claim and one settle span every tenant, as before.
"""

from __future__ import annotations

import random
import time
from collections.abc import Awaitable, Callable, Iterator
from typing import NamedTuple, TypeVar

import psycopg

from hub.dataplane.models import DUE_JOB_STATES, state_in

REFRESH_SECONDS = 2.0  # and an eighth of it after a round that found nothing due
CLAIM = TypeVar("CLAIM")

# Whether delivery_jobs is a distributed table: the citus extension and its metadata, read once a process.
DISTRIBUTED_SQL = """
SELECT EXISTS (SELECT 1 FROM pg_extension WHERE extname = 'citus')
   AND to_regclass('pg_dist_partition') IS NOT NULL
"""
JOBS_DISTRIBUTED_SQL = "SELECT EXISTS (SELECT 1 FROM pg_dist_partition WHERE logicalrelid = 'delivery_jobs'::regclass)"
# The tenants with open work by shard. The one statement of a claim loop that reaches every shard (each
# groups its own tenants: the open work's tenants are read once, not a row a job); the shard is named on the
# coordinator, from the materialized result. A role whose multi-shard statements are logged or refused
# (citus.multi_task_query_log_level) to catch any other keeps this one.
GROUPS_SQL = f"""
WITH open AS MATERIALIZED (SELECT tenant_id FROM delivery_jobs WHERE {state_in(DUE_JOB_STATES)} GROUP BY tenant_id)
SELECT get_shard_id_for_distribution_column('delivery_jobs', tenant_id) AS shard, array_agg(tenant_id ORDER BY tenant_id)
  FROM open GROUP BY 1 ORDER BY 1
"""
QUIET_SQL = "SELECT set_config('citus.multi_task_query_log_level', 'off', true)"


class ShardGroup(NamedTuple):
    """The tenants with open work whose rows are on one shard (``shard``: its id in ``delivery_jobs``)."""

    shard: int
    tenants: list[str]


class ShardGroups:
    """One process's shard groups and its turn among them (one rotation for all its claim loops)."""

    def __init__(self, refresh_seconds: float = REFRESH_SECONDS) -> None:
        self.refresh_seconds = refresh_seconds
        self.sharded: bool | None = None  # unknown until the first claim reads the database
        self.groups: list[ShardGroup] = []
        self.shard_of: dict[str, int] | None = None  # a tenant's shard; None: not on Citus
        self.read_at = float("-inf")
        self.dry = False  # the last round found nothing due
        # Each process starts its turns at its own place, so processes started together spread over the groups.
        self.turn = random.randrange(1 << 30)

    async def claim(self, conn: psycopg.AsyncConnection, claim_one: Callable[..., Awaitable[CLAIM]],
                    empty: Callable[[CLAIM], bool]) -> CLAIM | None:
        """``claim_one()`` on plain PostgreSQL; on Citus ``claim_one(group=…)`` of the next groups in turn
        until one claims something (``empty``: it did not), each group at most once; None: no group."""
        if not await self._sharded(conn):
            return await claim_one()
        await self._refresh(conn)
        claimed = None
        for group in self._round():
            claimed = await claim_one(group=group)
            if not empty(claimed):
                self.dry = False
                return claimed
        self.dry = True
        return claimed

    def _round(self) -> Iterator[ShardGroup]:
        """Every group once, from the process's turn; the turn moves on one group a claim (the process's
        claim loops share it, so loops claiming at once take different groups)."""
        groups = self.groups  # a refresh by another loop during the round replaces the list, not this one
        for _ in range(len(groups)):
            self.turn = (self.turn + 1) % (1 << 30)
            yield groups[self.turn % len(groups)]

    async def _sharded(self, conn: psycopg.AsyncConnection) -> bool:
        """Whether ``delivery_jobs`` is distributed (read once)."""
        if self.sharded is None:
            async with conn.transaction():
                (citus,) = await (await conn.execute(DISTRIBUTED_SQL)).fetchone() or (False,)
                if citus:
                    (citus,) = await (await conn.execute(JOBS_DISTRIBUTED_SQL)).fetchone() or (False,)
            self.sharded = bool(citus)
            self.shard_of = {} if self.sharded else None
        return self.sharded

    async def _refresh(self, conn: psycopg.AsyncConnection) -> None:
        """Read the groups when they are older than the refresh interval, or after a dry round."""
        now = time.monotonic()
        # After a dry round sooner (a new tenant's first jobs are in no group yet), but not at every idle poll.
        if now - self.read_at < (self.refresh_seconds / 8 if self.dry else self.refresh_seconds):
            return
        async with conn.transaction():
            await conn.execute(QUIET_SQL)
            rows = await (await conn.execute(GROUPS_SQL)).fetchall()
        self.groups = [ShardGroup(shard, list(tenants)) for shard, tenants in rows]
        # A tenant once seen keeps its shard (ids do not change when shards move between nodes): a batch
        # claimed before a refresh dropped its tenant is still settled by shard.
        self.shard_of = {**(self.shard_of or {}), **{t: g.shard for g in self.groups for t in g.tenants}}
        self.read_at, self.dry = now, False

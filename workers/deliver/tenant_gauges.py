"""The per-tenant gauges of ``hub deliver`` (N98): due jobs, the oldest due job's age, and the share of
this process's claims, for the top tenants by due jobs only, so the label set stays bounded."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable

import psycopg

from hub.dataplane.models import DUE_JOB_STATES, state_in
from hub.metrics import TENANT_DELIVERY_SHARE, TENANT_DUE_JOBS, TENANT_OLDEST_DUE

TOP_TENANTS_SQL = f"""
SELECT tenant_id, count(*), EXTRACT(EPOCH FROM now() - min(next_attempt_at))
  FROM delivery_jobs WHERE {state_in(DUE_JOB_STATES)} AND next_attempt_at <= now()
 GROUP BY tenant_id ORDER BY count(*) DESC, tenant_id LIMIT %s
"""


class ClaimShares:
    """The jobs this process claimed per tenant since the last report."""

    def __init__(self) -> None:
        self.claimed: Counter[str] = Counter()

    def add(self, tenants: Iterable[str]) -> None:
        self.claimed.update(tenants)

    def take(self) -> tuple[Counter[str], int]:
        """The counts since the last call and their total; starts a new interval."""
        claimed, self.claimed = self.claimed, Counter()
        return claimed, sum(claimed.values())


async def report_tenants(conn: psycopg.AsyncConnection, shares: ClaimShares, top: int) -> None:
    """Set the gauges anew for the ``top`` tenants with the most due jobs (the others' series removed)."""
    async with conn.transaction():
        rows = await (await conn.execute(TOP_TENANTS_SQL, (top,))).fetchall() if top > 0 else []
    claimed, total = shares.take()
    for gauge in (TENANT_DUE_JOBS, TENANT_OLDEST_DUE, TENANT_DELIVERY_SHARE):
        gauge.clear()
    for tenant, due, age in rows:
        TENANT_DUE_JOBS.labels(tenant).set(due)
        TENANT_OLDEST_DUE.labels(tenant).set(float(age))
        TENANT_DELIVERY_SHARE.labels(tenant).set(claimed[tenant] / total if total else 0.0)

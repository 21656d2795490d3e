"""The per-tenant gauges of ``hub deliver`` (N98): the top tenants by due jobs only, their oldest due job,
and the share of the process's claims each got; a tenant that left the top loses its series."""

from __future__ import annotations

import asyncio
import uuid

import psycopg
from prometheus_client import REGISTRY

from workers.deliver.tenant_gauges import ClaimShares, report_tenants

INSERT_SQL = """
INSERT INTO delivery_jobs (id, tenant_id, subscription_id, event_seq, state, attempts, next_attempt_at,
                           last_error_class, created_at, updated_at)
SELECT gen_random_uuid(), %s, %s, g, 'pending', 0, now() - make_interval(secs => %s), '', now(), now()
  FROM generate_series(1, %s) AS g
"""


def _gauge(name: str, tenant: str) -> float | None:
    return REGISTRY.get_sample_value(name, {"tenant": tenant})


def test_the_top_tenants_get_backlog_age_and_share(deliver_db: str) -> None:
    tag = uuid.uuid4().hex[:6]
    big, middle, small = (f"gauge-{tag}-{name}" for name in ("big", "middle", "small"))
    shares = ClaimShares()
    shares.add([big] * 3 + [small])

    async def run(top: int) -> None:
        conn = await psycopg.AsyncConnection.connect(deliver_db)
        try:
            await conn.execute("UPDATE delivery_jobs SET next_attempt_at = now() + interval '1 day' "
                               "WHERE state IN ('pending', 'retrying')")
            for tenant, jobs, age in ((big, 30, 90), (middle, 20, 30), (small, 5, 5)):
                await conn.execute(INSERT_SQL, (tenant, uuid.uuid4(), age, jobs))
            await report_tenants(conn, shares, top)
        finally:
            await conn.rollback()
            await conn.close()

    asyncio.run(run(2))
    assert _gauge("streaming_hub_tenant_due_jobs", big) == 30
    assert _gauge("streaming_hub_tenant_due_jobs", middle) == 20
    assert _gauge("streaming_hub_tenant_due_jobs", small) is None, "only the top tenants get series"
    assert 89 <= _gauge("streaming_hub_tenant_oldest_due_seconds", big) <= 120
    assert _gauge("streaming_hub_tenant_delivery_share", big) == 0.75
    assert _gauge("streaming_hub_tenant_delivery_share", middle) == 0.0, "a tenant with a backlog and no claim"
    asyncio.run(run(0))
    assert _gauge("streaming_hub_tenant_due_jobs", big) is None, "a series of a tenant out of the top is removed"

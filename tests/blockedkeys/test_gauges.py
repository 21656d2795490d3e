"""The ordered-delivery gauges (N77) read from PostgreSQL, as ``hub deliver``'s backlog reporter reads them."""

from __future__ import annotations

import asyncio

import psycopg

from hub.db import libpq_url
from hub.ordering.gauges import ordered_gauges
from tests.blockedkeys.conftest import block, enqueue_key, ordered_webhook


def gauges() -> tuple[int, float]:
    async def read() -> tuple[int, float]:
        async with await psycopg.AsyncConnection.connect(libpq_url(), autocommit=True) as conn:
            return await ordered_gauges(conn)

    return asyncio.run(read())


def test_blocked_keys_and_the_oldest_wait_are_counted(api, tenant):
    sub = ordered_webhook(api)
    blocked_before, _ = gauges()
    key = enqueue_key(tenant, sub, "k", 3)
    with psycopg.connect(libpq_url()) as conn:
        conn.execute("UPDATE delivery_jobs SET created_at = now() - interval '2 hours' WHERE id = %s", (key.jobs[1],))
    blocked, oldest = gauges()
    assert oldest >= 7200, "the backdated waiting job is the oldest wait"
    block(tenant, sub, "k")
    now_blocked, _ = gauges()
    assert now_blocked == blocked + 1 and blocked == blocked_before, "tests run one at a time"
    assert api.with_options(sub)["ordering"] is None  # off: the key row goes, its jobs are due
    assert gauges()[0] == now_blocked - 1

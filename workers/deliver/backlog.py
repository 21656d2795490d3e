"""The backlog gauges of ``hub deliver``: how many jobs are due and how old the oldest one is, the ordered
keys blocked and the oldest wait for a key's turn (N77), and the top tenants' own (N98)."""

from __future__ import annotations

import asyncio

import psycopg

from hub.metrics import JOB_BACKLOG, OLDEST_DUE_JOB_AGE, ORDERED_BLOCKED_KEYS, ORDERED_OLDEST_WAIT
from hub.ordering.gauges import ordered_gauges
from workers.deliver import store
from workers.deliver.tenant_gauges import ClaimShares, report_tenants
from workers.runtime import TRANSIENT_DB_ERRORS, AsyncConnector, Backoff, run_reconnecting, sleep_unless_stopped

BACKLOG_EVERY_SECONDS = 5.0


async def report_backlog(stop: asyncio.Event, connect: AsyncConnector, shares: ClaimShares | None = None,
                         top_tenants: int = 0) -> None:
    """Refresh the backlog gauges every few seconds until ``stop`` is set, and the per-tenant ones of the
    ``top_tenants`` with the most due jobs (N98; ``shares``: the process's claims per tenant).

    When PostgreSQL goes away the gauges keep their last values; the next round connects again.
    """

    async def refresh(conn: psycopg.AsyncConnection) -> None:
        count, age = await store.backlog(conn)
        JOB_BACKLOG.set(count)
        OLDEST_DUE_JOB_AGE.set(age)
        blocked, oldest_wait = await ordered_gauges(conn)
        ORDERED_BLOCKED_KEYS.set(blocked)
        ORDERED_OLDEST_WAIT.set(oldest_wait)
        if shares is not None:
            await report_tenants(conn, shares, top_tenants)
        await sleep_unless_stopped(stop, BACKLOG_EVERY_SECONDS)

    await run_reconnecting(stop, connect, refresh, on_error=lambda _exc: None, retry=TRANSIENT_DB_ERRORS,
                           backoff=Backoff(BACKLOG_EVERY_SECONDS, BACKLOG_EVERY_SECONDS))

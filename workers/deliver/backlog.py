"""The backlog gauges of ``hub deliver``: how many jobs are due and how old the oldest one is."""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable

import psycopg

from hub.metrics import JOB_BACKLOG, OLDEST_DUE_JOB_AGE
from workers.deliver import store
from workers.runtime import TRANSIENT_DB_ERRORS

BACKLOG_EVERY_SECONDS = 5.0


async def report_backlog(stop: asyncio.Event, connect: Callable[[], Awaitable[psycopg.AsyncConnection]]) -> None:
    """Refresh the backlog gauges every few seconds until ``stop`` is set."""
    conn: psycopg.AsyncConnection | None = None
    while not stop.is_set():
        try:
            if conn is None or conn.closed:
                conn = await connect()
            count, age = await store.backlog(conn)
            JOB_BACKLOG.set(count)
            OLDEST_DUE_JOB_AGE.set(age)
        except TRANSIENT_DB_ERRORS:
            if conn is not None:
                await conn.close()  # PostgreSQL went away under it; the next round connects again
            conn = None
        try:
            await asyncio.wait_for(stop.wait(), BACKLOG_EVERY_SECONDS)
        except TimeoutError:
            pass
    if conn is not None:
        await conn.close()

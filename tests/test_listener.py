"""The one notification listener (hub/dataplane/listener.py) against the real PostgreSQL: a notification's
payload, a quiet interval, and a connection killed under it (it reconnects and says "look at everything")."""

from __future__ import annotations

import asyncio
import uuid

import psycopg

from hub.db import libpq_url
from hub.dataplane.listener import CONNECTED, NOTIFIED, QUIET, Notice, listen


async def _connect() -> psycopg.AsyncConnection:
    return await psycopg.AsyncConnection.connect(libpq_url(), application_name="hub-test-listener")


async def _notify(channel: str, payload: str) -> None:
    async with await psycopg.AsyncConnection.connect(libpq_url(), autocommit=True) as conn:
        await conn.execute("SELECT pg_notify(%s, %s)", (channel, payload))


async def _kill_listeners() -> None:
    async with await psycopg.AsyncConnection.connect(libpq_url(), autocommit=True) as conn:
        await conn.execute("SELECT pg_terminate_backend(pid) FROM pg_stat_activity "
                           "WHERE application_name = 'hub-test-listener'")


async def _scenario() -> tuple[list[Notice], list[str]]:
    channel, stop = f"test_{uuid.uuid4().hex[:12]}", asyncio.Event()
    notices: asyncio.Queue[Notice] = asyncio.Queue()
    lost: list[str] = []

    async def on_notice(notice: Notice, _conn: psycopg.AsyncConnection) -> None:
        await notices.put(notice)

    async def next_notice(reason: str) -> Notice:
        while (notice := await asyncio.wait_for(notices.get(), 10)).reason != reason:
            pass
        return notice

    task = asyncio.create_task(listen(channel, stop=stop, connect=_connect, on_notice=on_notice, poll_seconds=0.3,
                                      on_lost=lambda exc: lost.append(type(exc).__name__)))
    seen = [await next_notice(CONNECTED)]
    await _notify(channel, "tenant-a")
    seen.append(await next_notice(NOTIFIED))
    seen.append(await next_notice(QUIET))
    await _kill_listeners()
    seen.append(await next_notice(CONNECTED))  # after the fault, a fresh connection and its notice
    await _notify(channel, "tenant-b")
    seen.append(await next_notice(NOTIFIED))
    stop.set()
    await asyncio.wait_for(task, 10)
    return seen, lost


def test_notices_payloads_quiet_intervals_and_a_reconnect() -> None:
    seen, lost = asyncio.run(_scenario())
    assert [notice.reason for notice in seen] == [CONNECTED, NOTIFIED, QUIET, CONNECTED, NOTIFIED]
    assert seen[1].payloads == {"tenant-a"} and seen[4].payloads == {"tenant-b"}
    assert [notice.everything for notice in seen] == [True, False, True, True, False]
    assert lost, "the killed connection was reported"

"""Listening on a PostgreSQL notification channel, written once: LISTEN with reconnect and a fallback poll.

Ingest notifies at COMMIT (the due-jobs channel, the broker's and the consumer relay's stored channels),
so a notification never comes before what it announces is visible. A notification is only a hint: the
connection can be down, or a notification missed, so the listener also says "look at everything" when it
(re)connects and after ``poll_seconds`` without a notification. Its users: the delivery wake-up
(``workers/deliver/wakeup.py``), the consumer relay (``workers/consumer_relay.py``) and the broker's
live feed (``hub/broker/feed.py``).
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from dataclasses import dataclass

import psycopg

from hub.dataplane.reconnect import AsyncConnector, Backoff, run_reconnecting

CONNECTED, NOTIFIED, QUIET = "connected", "notified", "quiet"


@dataclass(frozen=True, slots=True)
class Notice:
    """Why the listener calls: notifications came (their payloads), or it (re)connected, or it was quiet
    for the poll interval. In the last two cases anything may have happened: look at everything."""

    reason: str
    payloads: frozenset[str] = frozenset()

    @property
    def everything(self) -> bool:
        return self.reason != NOTIFIED


OnNotice = Callable[[Notice, psycopg.AsyncConnection], Awaitable[None]]


async def listen(channel: str, *, stop: asyncio.Event, connect: AsyncConnector, on_notice: OnNotice,
                 poll_seconds: float, on_lost: Callable[[Exception], None]) -> None:
    """LISTEN on CHANNEL until STOP, calling ON_NOTICE with each notice and the listening connection
    (autocommit; a user may read with it between notices). A fault (of the connection, or raised by
    ON_NOTICE) goes to ON_LOST and the listener reconnects after a backoff; the notifications that came
    meanwhile are covered by the ``connected`` notice that follows."""
    backoff = Backoff()

    async def serve(conn: psycopg.AsyncConnection) -> None:
        await conn.set_autocommit(True)
        await conn.execute(f"LISTEN {channel}")
        backoff.reset()
        await on_notice(Notice(CONNECTED), conn)
        while not stop.is_set():
            # One notification ends the wait; the others of a burst are already in psycopg's backlog
            # and come with the next call, so each notice answers what is known now.
            payloads = frozenset([notify.payload async for notify in conn.notifies(timeout=poll_seconds,
                                                                                   stop_after=1)])
            await on_notice(Notice(NOTIFIED, payloads) if payloads else Notice(QUIET), conn)

    await run_reconnecting(stop, connect, serve, on_error=on_lost, backoff=backoff)

"""Waiting and reconnecting for the asyncio loops that hold a PostgreSQL connection (the workers' claim and
listen loops, the broker's live feed): one way to sleep without delaying a shutdown, one backoff, one
reconnect loop. ``workers.runtime`` offers them to the workers under the same names.
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable

import psycopg

AsyncConnector = Callable[[], Awaitable[psycopg.AsyncConnection]]  # opens a fresh connection on each call


async def sleep_unless_stopped(stop: asyncio.Event, seconds: float) -> bool:
    """Wait ``seconds``, or only until ``stop`` is set; True when it was (or already is) set."""
    if stop.is_set():
        return True
    try:
        async with asyncio.timeout(seconds):
            await stop.wait()
    except TimeoutError:
        return False
    return True


class Backoff:
    """The wait after a failed try: ``first`` seconds, doubled after each failure up to ``most``,
    back to ``first`` after a success (:meth:`reset`)."""

    def __init__(self, first: float = 0.5, most: float = 15.0) -> None:
        self.first, self.most = first, most
        self.seconds = first

    def reset(self) -> None:
        self.seconds = self.first

    async def wait(self, stop: asyncio.Event) -> None:
        """Sleep the current wait (less when ``stop`` is set), then double it for the next failure."""
        seconds, self.seconds = self.seconds, min(self.seconds * 2, self.most)
        await sleep_unless_stopped(stop, seconds)


async def run_reconnecting(stop: asyncio.Event, connect: AsyncConnector,
                           work: Callable[[psycopg.AsyncConnection], Awaitable[object]], *,
                           on_error: Callable[[Exception], None], retry: tuple[type[Exception], ...] = (Exception,),
                           backoff: Backoff | None = None) -> None:
    """Run ``work(connection)`` round after round until ``stop`` is set, on one connection kept
    between rounds and opened when there is none.

    An error of a ``retry`` class (connecting included) goes to ``on_error``, closes the connection
    and waits ``backoff`` before the next round connects again; a round that returns resets it
    (``work`` may reset it sooner itself). Any other error propagates. The connection is closed on
    the way out.
    """
    backoff = backoff or Backoff()
    conn: psycopg.AsyncConnection | None = None
    try:
        while not stop.is_set():
            try:
                if conn is None or conn.closed:
                    conn = await connect()
                await work(conn)
            except retry as exc:
                on_error(exc)
                if conn is not None:
                    await conn.close()
                conn = None
                await backoff.wait(stop)
                continue
            backoff.reset()
    finally:
        if conn is not None and not conn.closed:
            await conn.close()

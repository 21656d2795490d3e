"""Waking idle claim loops as soon as `hub ingest` commits new due jobs (PostgreSQL LISTEN/NOTIFY).

Ingest issues ``pg_notify`` inside the transaction that writes the jobs, so the notification is
sent by PostgreSQL at COMMIT, never before the jobs are visible, and never for a batch that rolled
back. Each `hub deliver` process LISTENs on one dedicated connection and wakes its idle claim loops.
The notification is only a hint: the claim loops keep polling every ``deliver_idle_poll_seconds``,
so a lost notification (the listening connection was down, or jobs came from elsewhere: retries,
held jobs released by an activation) costs at most one poll interval, never a job.
"""

from __future__ import annotations

import asyncio
import logging
from collections import deque

import psycopg

from hub.dataplane.due_channel import CHANNEL
from hub.dataplane.listener import QUIET, Notice, listen
from workers.runtime import AsyncConnector, sleep_unless_stopped

log = logging.getLogger("hub.deliver.wakeup")

LISTEN_CHECK_SECONDS = 1.0  # how often the listener looks at the stop event between notifications


class Wakeup:
    """What idle claim loops wait on: each wake-up releases one waiting loop (one claim per notification,
    not one per loop), or is kept for the next loop that goes idle when every loop is busy."""

    def __init__(self) -> None:
        self._waiters: deque[asyncio.Future[None]] = deque()
        self._pending = False
        self._closed = False

    def set(self) -> None:
        """Wake one waiting loop; with none waiting, the next one to wait returns at once."""
        while self._waiters:
            waiter = self._waiters.popleft()
            if not waiter.done():
                waiter.set_result(None)
                return
        self._pending = True

    def set_all(self) -> None:
        """Wake every loop now and from now on (stopping)."""
        self._closed = True
        while self._waiters:
            waiter = self._waiters.popleft()
            if not waiter.done():
                waiter.set_result(None)

    async def wait(self, seconds: float) -> bool:
        """Return when woken (True) or after ``seconds`` (False), whichever is first."""
        if self._pending or self._closed:
            self._pending = False
            return True
        waiter: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        self._waiters.append(waiter)
        try:
            async with asyncio.timeout(seconds):
                await waiter
        except TimeoutError:
            return False
        finally:
            if waiter in self._waiters:
                self._waiters.remove(waiter)
        return True

    async def release_on(self, stop: asyncio.Event) -> None:
        """Wake every waiting loop once ``stop`` is set, so a long poll interval never delays a shutdown."""
        await stop.wait()
        self.set_all()

    async def listen(self, stop: asyncio.Event, connect: AsyncConnector) -> None:
        """LISTEN until ``stop`` is set, reconnecting after a fault; wakes the loops on each notification.

        Any error only costs the hint: the worker goes on polling, never dies of it.
        """
        await listen(CHANNEL, stop=stop, connect=connect, on_notice=self._on_notice,
                     poll_seconds=LISTEN_CHECK_SECONDS, on_lost=_listener_lost)

    async def _on_notice(self, notice: Notice, _conn: psycopg.AsyncConnection) -> None:
        # On (re)connect jobs may have come while nobody listened; a quiet interval needs nothing (the
        # claim loops poll on their own).
        if notice.reason != QUIET:
            self.set()


class ClaimPacing:
    """Spaces the claims of one process's loops while there is no backlog: at most one claim per
    ``seconds``, whichever loop makes it and whatever prompted it (a notification, the end of a short
    batch), so what arrives meanwhile goes out in one claim. A full batch means a backlog: then every
    loop claims back to back until a claim comes back short. An idle poll (no notification came within
    the poll interval) claims only when no claim was made for ``poll_seconds``: it looks for retries come
    due, which any claim of that interval has already taken.

    Without it a steady load turned into a claim per ingest commit and per finished short batch, most of
    them of a few jobs or none, each costing its two transactions whatever its size. The spacing is all
    the wait a job adds between ingest's commit and its claim, so it is short; the idle polls are what an
    idle worker spends, so they keep their own, longer spacing."""

    def __init__(self, seconds: float, poll_seconds: float = 0.0) -> None:
        self.seconds = seconds
        self.poll_seconds = poll_seconds
        self.backlog = False
        self._last = float("-inf")

    def claimed(self, full: bool) -> None:
        """Note a claim: a full one (it took all it could) means a backlog (no pacing), a short one none."""
        self.backlog = full

    async def turn(self, stop: asyncio.Event, *, poll: bool = False) -> bool:
        """Return when this loop may claim: at once on a backlog, else at the next free slot; False
        (at once) for a ``poll`` that a claim of the last ``poll_seconds`` made needless."""
        if self.backlog:
            return True
        now = asyncio.get_running_loop().time()
        if poll and now < self._last + self.poll_seconds:
            return False
        if self.seconds <= 0:
            return True
        slot = max(now, self._last + self.seconds)
        self._last = slot  # the slot is this loop's: the next loop to ask gets the one after
        if slot > now:
            await sleep_unless_stopped(stop, slot - now)
        return True


def _listener_lost(exc: Exception) -> None:
    log.warning("wake-up listener lost its connection; the claim loops poll meanwhile",
                extra={"fields": {"error": type(exc).__name__}})

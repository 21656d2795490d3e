"""A batch's slow tail, recorded apart (N83): the sends still out when the batch's record stops waiting.

A batch is recorded in one transaction once its sends end. One destination that answers slowly (or
not at all, until the timeout) would hold the whole batch, and with it the pipeline's next claim: in
the chaos run, one request in twenty to a flaky receiver set every batch's pace to its 1.5 s timeout.
So a pipeline waits at most ``deliver_record_wait_seconds`` for its sends, records the ones that
ended, and claims on; the rest are recorded when they end, on this process's tail connection. They
stay under the batch's lease all along, and each job is recorded once, by one of the two.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import AsyncIterator, Awaitable
from contextlib import asynccontextmanager

import psycopg

from workers.runtime import TRANSIENT_DB_ERRORS, AsyncConnector

log = logging.getLogger("hub.deliver.engine")


class Tails:
    """The detached tails of one process's batches, and the connection they are recorded on."""

    def __init__(self, connect: AsyncConnector | None, wait_seconds: float) -> None:
        # No connector (or no wait): every batch waits for all its sends, as one record.
        self.connect = connect if wait_seconds > 0 else None
        self.wait_seconds = wait_seconds
        self.tasks: set[asyncio.Task[None]] = set()
        self.lock = asyncio.Lock()
        self.conn: psycopg.AsyncConnection | None = None

    async def ended(self, sending: asyncio.Future[object]) -> bool:
        """Wait for ``sending`` at most the record wait; whether it ended (its error is raised here)."""
        if self.connect is None:
            await sending
            return True
        done, _ = await asyncio.wait({sending}, timeout=self.wait_seconds)
        if done:
            sending.result()
        return bool(done)

    def detach(self, recording: Awaitable[None]) -> None:
        """Record a tail in the background; a failure leaves its jobs to come back when the lease ends."""
        task = asyncio.ensure_future(self._guarded(recording))
        self.tasks.add(task)
        task.add_done_callback(self.tasks.discard)

    async def _guarded(self, recording: Awaitable[None]) -> None:
        try:
            await recording
        except TRANSIENT_DB_ERRORS as exc:
            log.warning("database unavailable; a tail's jobs come back when their lease ends",
                        extra={"fields": {"error": type(exc).__name__}})
        except Exception:
            log.exception("recording a batch's tail failed; its jobs come back when their lease ends")

    @asynccontextmanager
    async def connection(self) -> AsyncIterator[psycopg.AsyncConnection]:
        """The tail connection, one user at a time; (re)opened when missing, dropped when it failed."""
        assert self.connect is not None
        async with self.lock:
            if self.conn is None or self.conn.closed:
                self.conn = await self.connect()
            try:
                yield self.conn
            except BaseException:
                await self._drop()
                raise

    async def drain(self) -> None:
        """Wait for every detached tail (a shutdown), then close the connection."""
        while self.tasks:
            await asyncio.gather(*list(self.tasks), return_exceptions=True)
        await self._drop()

    async def _drop(self) -> None:
        conn, self.conn = self.conn, None
        if conn is not None and not conn.closed:
            await conn.close()

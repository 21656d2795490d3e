"""The slow tails of a process's batches, recorded together (N83, N108): the sends still out when a batch's
record stops waiting.

A batch is recorded in one transaction once its sends end. One destination that answers slowly (or
not at all, until the timeout) would hold the whole batch, and with it the pipeline's next claim: in
the chaos run, one request in twenty to a flaky receiver set every batch's pace to its 1.5 s timeout.
So a pipeline waits at most ``deliver_record_wait_seconds`` for its sends, records the ones that
ended, and claims on; the rest become the batch's tail. Every record wait, one round records in one
transaction, on this process's tail connection, every send of every tail that ended since the last round
(N108): a send is recorded soon after it ends, not once the slowest send of its batch has, and the tail
connection takes one transaction per record wait whatever the number of batches (a round per batch
outnumbered what it could record, N105). They stay under their batch's lease all along, and each job is
recorded once, by the batch or by one round.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import AsyncIterator, Awaitable, Callable, Sequence
from contextlib import asynccontextmanager
from typing import Any

import psycopg

from workers.deliver.bookkeeping import Part
from workers.runtime import TRANSIENT_DB_ERRORS, AsyncConnector

log = logging.getLogger("hub.deliver.engine")

Recorder = Callable[[psycopg.AsyncConnection, list[Part]], Awaitable[int]]


class Tail:
    """One batch's sends still out after its record wait: ``results`` fill in as they end (None: not
    ended, or, once ``sending`` is done, not tried); ``part_of`` makes the record of some of them."""

    __slots__ = ("part_of", "rest", "results", "sending")

    def __init__(self, results: Sequence[object | None], rest: list[int], sending: asyncio.Future[Any],
                 part_of: Callable[[list[int]], Part]) -> None:
        self.results = results
        self.rest = rest
        self.sending = sending
        self.part_of = part_of

    def take(self) -> list[int]:
        """The sends that ended since the last call (every one left once all ended), no longer the tail's."""
        if not self.sending.done():
            taken = [index for index in self.rest if self.results[index] is not None]
            if taken:
                self.rest = [index for index in self.rest if self.results[index] is None]
            return taken
        if self.sending.cancelled() or self.sending.exception() is not None:
            # A sender failed: its job's send may have gone out unrecorded; it comes back when the lease ends.
            log.error("a batch's sending failed; its unfinished jobs come back when their lease ends",
                      exc_info=None if self.sending.cancelled() else self.sending.exception())
            taken = [index for index in self.rest if self.results[index] is not None]
        else:
            taken = self.rest
        self.rest = []
        return taken


class Tails:
    """The tails of one process's batches, the connection they are recorded on, and the rounds that do."""

    def __init__(self, connect: AsyncConnector | None, wait_seconds: float, record: Recorder) -> None:
        # No connector (or no wait): every batch waits for all its sends, as one record.
        self.connect = connect if wait_seconds > 0 else None
        self.wait_seconds = wait_seconds
        self.record = record
        self.pending: list[Tail] = []
        self.recorder: asyncio.Task[None] | None = None
        self.lock = asyncio.Lock()
        self.conn: psycopg.AsyncConnection | None = None

    async def ended(self, sending: asyncio.Future[Any]) -> bool:
        """Wait for ``sending`` at most the record wait; whether it ended (its error is raised here)."""
        if self.connect is None:
            await sending
            return True
        done, _ = await asyncio.wait({sending}, timeout=self.wait_seconds)
        if done:
            sending.result()
        return bool(done)

    def detach(self, tail: Tail) -> None:
        """Leave a batch's tail to the rounds (started with the first tail, ended with the last)."""
        self.pending.append(tail)
        if self.recorder is None or self.recorder.done():
            self.recorder = asyncio.ensure_future(self._rounds())

    async def _rounds(self) -> None:
        while self.pending:
            await asyncio.sleep(self.wait_seconds)
            try:
                await self.round()
            except Exception:  # a defect in one round must not leave the later tails unrecorded
                log.exception("a tail round failed; its jobs come back when their lease ends")

    async def round(self) -> int:
        """Record every send of every tail that ended since the last round, in one transaction; returns how
        many ordered jobs it made due. A failure leaves its jobs to come back when their lease ends."""
        parts = []
        for tail in self.pending:
            taken = tail.take()
            if taken:
                parts.append(tail.part_of(taken))
        self.pending = [tail for tail in self.pending if tail.rest]
        if not parts:
            return 0
        try:
            async with self.connection() as conn:
                return await self.record(conn, parts)
        except TRANSIENT_DB_ERRORS as exc:
            log.warning("database unavailable; a tail round's jobs come back when their lease ends",
                        extra={"fields": {"error": type(exc).__name__}})
        except Exception:
            log.exception("recording a tail round failed; its jobs come back when their lease ends")
        return 0

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
        """Wait until every tail is recorded (a shutdown), then close the connection."""
        while self.recorder is not None and not self.recorder.done():
            await asyncio.gather(self.recorder, return_exceptions=True)
        await self._drop()

    async def _drop(self) -> None:
        conn, self.conn = self.conn, None
        if conn is not None and not conn.closed:
            await conn.close()

"""One claim loop of ``hub deliver``: batches back to back while there is a backlog, paced claims and
wake-ups when there is not, reconnecting after a failed batch."""

from __future__ import annotations

import asyncio
import logging

import psycopg

from workers.deliver.engine import Engine
from workers.deliver.wakeup import ClaimPacing, Wakeup
from workers.runtime import TRANSIENT_DB_ERRORS, AsyncConnector, run_reconnecting

log = logging.getLogger("hub.deliver.engine")


async def pipeline(engine: Engine, connect: AsyncConnector, stop: asyncio.Event, wakeup: Wakeup | None = None,
                   pacing: ClaimPacing | None = None, *, bulk: bool = True, express: bool = False) -> None:
    """One claim loop: batches back to back while there is a backlog; without one, claims spaced by
    ``pacing`` (shared by the process's loops), and when there is no work, a pause that a wake-up (new
    jobs committed by ingest) ends early. A failed batch (the database, a defect or a lifecycle
    publish) is logged and retried on a new connection; its lease returns its jobs. ``bulk`` False:
    the live lane, which claims live jobs only (N58). ``express``: the express loop (N98), which claims
    only lanes whose destination is not busy, so its batches are short and a quiet lane's job does not
    wait for the pipelines' batches of a flood (it paces itself, its short claims are no sign of the end
    of a backlog)."""
    idle = engine.settings.deliver_idle_poll_seconds
    wakeup = wakeup or Wakeup()
    pacing = pacing or ClaimPacing(engine.settings.deliver_claim_interval_ms / 1000, idle)
    polling = False  # the last pause ended without a wake-up: the next claim is an idle poll

    async def one_batch(conn: psycopg.AsyncConnection) -> None:
        nonlocal polling
        if not await pacing.turn(stop, poll=polling):
            polling = not await wakeup.wait(idle)  # another loop's claim just looked: wait again
            return
        polling = False
        claimed, promoted, full = await engine.run_batch(conn, bulk=bulk, express=express)
        # A settle that handed ordered keys on made their next jobs due now (N78): claim again at once,
        # as on a backlog (they are one, stored behind their heads), or a key would move once per pacing slot.
        # A full claim (its limit, or a lane's most, N98) means a backlog too.
        pacing.claimed(full or bool(promoted))
        if full:
            wakeup.set()  # a full batch: more may be due, so an idle sibling loop claims too
        elif not claimed and not stop.is_set():
            polling = not await wakeup.wait(idle)

    await run_reconnecting(stop, connect, one_batch, on_error=_batch_failed)


def _batch_failed(exc: Exception) -> None:
    if isinstance(exc, TRANSIENT_DB_ERRORS):
        log.warning("database unavailable; retrying", extra={"fields": {"error": type(exc).__name__}})
    else:
        log.exception("delivery batch failed; its jobs come back when their lease ends")

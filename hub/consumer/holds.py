"""Each open stream's count of unacknowledged deliveries, in ``consumer_queue_holds`` (N76).

A stream reports through :class:`Holds`: when its count changed (at most once per ``INTERVAL``), and
every ``HEARTBEAT`` while it holds any; its row goes when it holds none or ends. The inventory
(:mod:`hub.durablequeues`) sums the rows seen within ``STALE``: a dead process's rows stop counting.
"""

from __future__ import annotations

import asyncio
import contextlib
import time
import uuid
from collections.abc import Sequence

from sqlalchemy import text

from hub.db import session_scope

INTERVAL, HEARTBEAT, STALE = 1.0, 20.0, 60.0
UPSERT = ("INSERT INTO consumer_queue_holds (queue_id, holder, unacked, seen_at) VALUES (:q, :h, :n, now()) "
          "ON CONFLICT (queue_id, holder) DO UPDATE SET unacked = EXCLUDED.unacked, seen_at = now()")
DELETE = "DELETE FROM consumer_queue_holds WHERE queue_id = :q AND holder = :h"
SUM = ("SELECT queue_id, SUM(unacked) FROM consumer_queue_holds WHERE queue_id = ANY(:ids) "
       "AND seen_at > now() - make_interval(secs => :stale) GROUP BY queue_id")


def _write(queue_id: str, holder: str, count: int) -> None:
    with session_scope() as session:
        session.execute(text(UPSERT if count else DELETE), {"q": queue_id, "h": holder, "n": count})
        session.commit()


def unacknowledged(queue_ids: Sequence[str]) -> dict[str, int]:
    """Each queue's deliveries held unacknowledged by live streams (queues with none are absent)."""
    with session_scope() as session:
        rows = session.execute(text(SUM), {"ids": list(queue_ids), "stale": STALE}).all()
    return {row[0]: int(row[1]) for row in rows}


class Holds:
    """One stream's reports; ``report`` is cheap when nothing is due (no database call)."""

    def __init__(self, queue_id: str) -> None:
        self.queue_id, self.holder = queue_id, uuid.uuid4().hex
        self._reported, self._at = 0, 0.0

    async def report(self, count: int) -> None:
        now = time.monotonic()
        changed = count != self._reported and now - self._at >= INTERVAL
        if not changed and not (count and now - self._at >= HEARTBEAT):
            return
        self._reported, self._at = count, now
        with contextlib.suppress(Exception):  # a report never breaks the stream it describes
            await asyncio.to_thread(_write, self.queue_id, self.holder, count)

    async def clear(self) -> None:
        if self._reported:
            with contextlib.suppress(Exception):
                await asyncio.to_thread(_write, self.queue_id, self.holder, 0)

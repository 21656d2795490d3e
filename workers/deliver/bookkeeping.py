"""What the delivery engine records in one transaction: the jobs' settled rows and attempts under their
claims' leases, the subscriptions' health and auto-disable.

A batch's record holds one claim; a tail round (``workers/deliver/tails.py``) holds the sends of every
batch that ended since the last round, each under its own claim's lease (N108).
"""

from __future__ import annotations

import logging
import uuid
from datetime import UTC, datetime
from typing import NamedTuple

import psycopg

from workers.deliver import store
from workers.deliver.health import auto_disable, fold, record_health
from workers.deliver.outcomes import Try, observe
from workers.deliver.store import Settled

log = logging.getLogger("hub.deliver.engine")

DEADLOCK_RETRIES = 3


class Part(NamedTuple):
    """One claim's share of a record: its lease token, the subscriptions whose keys a dead-letter blocks,
    the jobs it settles and the tries among them."""

    lease: datetime
    blocking: frozenset[uuid.UUID]
    settled: list[Settled]
    tries: list[Try]


async def record(conn: psycopg.AsyncConnection, parts: list[Part], *, disable_after: float) -> int:
    """``parts`` in one transaction (retried on a deadlock); returns how many ordered jobs it made due."""
    for attempt in range(1, DEADLOCK_RETRIES + 1):
        try:
            async with conn.transaction():
                promoted = await _bookkeeping(conn.cursor(), parts, disable_after)
            break
        except (psycopg.errors.DeadlockDetected, psycopg.errors.SerializationFailure):
            if attempt == DEADLOCK_RETRIES:
                raise
    for part in parts:
        observe(part.settled, part.tries)
    return promoted


async def _bookkeeping(cursor: psycopg.AsyncCursor, parts: list[Part], disable_after: float) -> int:
    now = datetime.now(UTC)
    latest = _latest_leases(parts)
    kept = [(s, part.lease) for part in parts for s in part.settled if _current(latest, part, s.job.id)]
    lease = parts[0].lease if len(parts) == 1 else [pair[1] for pair in kept]
    recorded = await store.settle(cursor, settled=[pair[0] for pair in kept], lease=lease, now=now,
                                  blocking=frozenset().union(*(part.blocking for part in parts)))
    held = [t for part in parts for t in part.tries if _current(latest, part, t.job.id) and recorded.holds(t.job.id)]
    folds = fold([(t.job.subscription_id, t.job.tenant_id, t.result.ok, t.finished) for t in held])
    await record_health(cursor, folds, now)
    failing = [sub for sub, change in folds.items() if change.failing_since is not None]
    await auto_disable(cursor, failing=failing, window_seconds=disable_after, now=now)
    skipped = sum(len(part.settled) for part in parts) - len(recorded.ids)
    if skipped:
        log.info("jobs re-claimed after a lease expired were not recorded by this worker",
                 extra={"fields": {"skipped": skipped}})
    return recorded.promoted


def _latest_leases(parts: list[Part]) -> dict[uuid.UUID, datetime] | None:
    """Each job's latest lease among several claims' parts (None for one part): a job claimed again by
    this process after its lease ended is recorded under the later claim only."""
    if len(parts) == 1:
        return None
    latest: dict[uuid.UUID, datetime] = {}
    for part in parts:
        for item in part.settled:
            if item.job.id not in latest or latest[item.job.id] < part.lease:
                latest[item.job.id] = part.lease
    return latest


def _current(latest: dict[uuid.UUID, datetime] | None, part: Part, job_id: uuid.UUID) -> bool:
    """Whether ``part`` holds the job's latest claim among the record's parts."""
    return latest is None or latest[job_id] == part.lease

"""What the delivery engine records in one transaction: the jobs' settled rows and attempts under their
claims' leases, the subscriptions' health and auto-disable.

A batch's record holds one claim; a tail round (``workers/deliver/tails.py``) holds the sends of every
batch that ended since the last round, each under its own claim's lease. A try whose record its lease
refuses (the job was claimed again after the lease ended) still leaves its attempt row (N108), the job
untouched, so the attempt log counts every send.
"""

from __future__ import annotations

import logging
import os
import uuid
from collections.abc import Mapping
from datetime import UTC, datetime
from typing import NamedTuple

import psycopg

from workers.deliver import store
from workers.deliver.health import auto_disable, fold, record_health
from workers.deliver.outcomes import Try, lost_attempt, observe
from workers.deliver.store import AttemptRow, Recorded, Settled

log = logging.getLogger("hub.deliver.engine")

DEADLOCK_RETRIES = 3
# Names this process in a lost try's attempt row: no host name (the row's detail is the tenant's to read).
WORKER = f"deliver-{os.getpid()}-{uuid.uuid4().hex[:6]}"


class Part(NamedTuple):
    """One claim's share of a record: its lease token, the subscriptions whose keys a dead-letter blocks,
    the jobs it settles and the tries among them."""

    lease: datetime
    blocking: frozenset[uuid.UUID]
    settled: list[Settled]
    tries: list[Try]


async def record(conn: psycopg.AsyncConnection, parts: list[Part], *, disable_after: float,
                 shard_of: Mapping[str, int] | None = None) -> int:
    """``parts`` in one transaction (retried on a deadlock); returns how many ordered jobs it made due.
    ``shard_of``: on Citus, each tenant's shard, so the settle is one update a shard (N109)."""
    for attempt in range(1, DEADLOCK_RETRIES + 1):
        try:
            async with conn.transaction():
                promoted = await _bookkeeping(conn.cursor(), parts, disable_after, shard_of)
            break
        except (psycopg.errors.DeadlockDetected, psycopg.errors.SerializationFailure):
            if attempt == DEADLOCK_RETRIES:
                raise
    for part in parts:
        observe(part.settled, part.tries)
    return promoted


async def _bookkeeping(cursor: psycopg.AsyncCursor, parts: list[Part], disable_after: float,
                       shard_of: Mapping[str, int] | None) -> int:
    now = datetime.now(UTC)
    latest = _latest_leases(parts)
    kept = [(s, part.lease) for part in parts for s in part.settled if _current(latest, part, s.job.id)]
    lease = parts[0].lease if len(parts) == 1 else [pair[1] for pair in kept]
    recorded = await store.settle(cursor, settled=[pair[0] for pair in kept], lease=lease, now=now,
                                  blocking=frozenset().union(*(part.blocking for part in parts)), shard_of=shard_of)
    held = [t for part in parts for t in part.tries if _current(latest, part, t.job.id) and recorded.holds(t.job.id)]
    folds = fold([(t.job.subscription_id, t.job.tenant_id, t.result.ok, t.finished) for t in held])
    await record_health(cursor, folds, now)
    failing = [sub for sub, change in folds.items() if change.failing_since is not None]
    await auto_disable(cursor, failing=failing, window_seconds=disable_after, now=now)
    skipped = sum(len(part.settled) for part in parts) - len(recorded.ids)
    if skipped:
        lost = _lost_tries(parts, latest, recorded)
        await store.write_attempts(cursor, lost)
        log.info("jobs re-claimed after a lease expired were not recorded by this worker; their tries' attempts were",
                 extra={"fields": {"skipped": skipped, "lost_tries": len(lost), "worker": WORKER}})
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


def _lost_tries(parts: list[Part], latest: dict[uuid.UUID, datetime] | None, recorded: Recorded) -> list[AttemptRow]:
    """The attempt rows of the tries the settle did not record (their lease had ended)."""
    rows: list[AttemptRow] = []
    for part in parts:
        lost = {t.job.id: t for t in part.tries if not (_current(latest, part, t.job.id) and recorded.holds(t.job.id))}
        rows.extend(lost_attempt(s.attempt, lost[s.job.id].result, part.lease, WORKER)
                    for s in part.settled if s.job.id in lost and s.attempt is not None)
    return rows

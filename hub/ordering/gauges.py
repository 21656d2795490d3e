"""The ordered-delivery gauges (N77): blocked keys and the oldest wait, database-wide, for ``hub deliver``'s
backlog reporter (every deliver process reports the same values: alert on ``max``)."""

from __future__ import annotations

import psycopg

from hub.dataplane.models import JobState, state_in

# Both are partial-index reads: ix_ordered_keys_blocked (blocked_at IS NOT NULL) and ix_delivery_jobs_waiting
# (its predicate spelled the same way), so they cost the blocked keys and the waiting jobs, not the tables.
GAUGES_SQL = f"""
SELECT (SELECT count(*) FROM ordered_keys WHERE blocked_at IS NOT NULL),
       COALESCE(EXTRACT(EPOCH FROM now() - (SELECT min(created_at) FROM delivery_jobs
                                              WHERE {state_in((JobState.waiting,))})), 0)
"""


async def ordered_gauges(conn: psycopg.AsyncConnection) -> tuple[int, float]:
    """Keys parked by a dead-lettered head, and the age in seconds of the oldest job waiting for its key's
    turn (0 when none waits)."""
    async with conn.transaction():
        cursor = await conn.execute(GAUGES_SQL)
        blocked, oldest = await cursor.fetchone() or (0, 0)
    return int(blocked), float(oldest)

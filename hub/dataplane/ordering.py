"""Ordered delivery's data plane (N77, N78): every statement on ``ordered_keys`` and on the ordered jobs.

A key row is the key's lock and names its head, the one job of the key that may be due. Ingest and
recover enqueue through :func:`enqueue` (the key's first job ``pending``, every later one ``waiting``);
the deliver engine's settle ends heads through :func:`end_heads` (block, or advance to the next
waiting job); an operator resumes a blocked key (:func:`retry_head`, :func:`skip_head`); turning
ordering off releases a subscription (:func:`release`). Every statement that locks key rows locks
them in (subscription_id, ordering_key) order.

Each operation is written once, as a generator of statements (a statement's rows are sent back in),
and driven by :func:`run` on a ``psycopg.Cursor`` or :func:`arun` on a ``psycopg.AsyncCursor``, inside
the caller's transaction: ``ordering.run(cursor, ordering.enqueue(jobs, priority=0))``,
``await ordering.arun(cursor, ordering.end_heads(ended))``. An API route holding a SQLAlchemy session
gets its cursor from :func:`session_cursor`.
"""

from __future__ import annotations

import uuid
from collections.abc import Generator, Iterable, Mapping, Sequence
from typing import Any, NamedTuple, TypeVar

import psycopg

from hub.dataplane.models import DeliveryJob, JobPriority, JobState, state_in
from hub.ids import new_id
from hub.sinks.vocabulary import Outcome
from hub.tableshape import column_list

T = TypeVar("T")
Statement = tuple[str, Mapping[str, Any]]
Steps = Generator[Statement, list[tuple[Any, ...]], T]

WAITING, PENDING = JobState.waiting.value, JobState.pending.value
IS_WAITING = state_in((JobState.waiting,))  # ix_delivery_jobs_waiting's predicate, written as the index's
_PENDING_LITERAL = f"'{PENDING}'"


def head_of_live(alias: str = "", *, when: str = "") -> str:
    """The SQL value of a job's priority as its key's head: a live job (where ``when`` holds too) is
    claimed as the head, ahead of the unordered backlog (N83); a recovery's (bulk) job keeps the
    recovery's pace. ``alias``: the job table's alias in the statement."""
    column = f"{alias}.priority" if alias else "priority"
    condition = f"{column} = {JobPriority.live.value}" + (f" AND {when}" if when else "")
    return f"CASE WHEN {condition} THEN {JobPriority.head.value} ELSE {column} END"


_HEAD_OF_LIVE = head_of_live()  # a job handed its key's turn
_JOB_COLUMNS = column_list(DeliveryJob, "id", "tenant_id", "subscription_id", "event_seq", "state", "attempts",
                           "next_attempt_at", "lease_until", "last_error_class", "created_at", "updated_at",
                           "priority", "ordering_key")
# What an operator's skip records against the head it passes over (the head's dead-letter stays recorded).
SKIP_OUTCOME = Outcome.dead_lettered.value
SKIP_DETAIL = "skipped by the operator: the key moved on to its next event"

# Ingest and recover: the batch's ordered jobs, sorted by (subscription, key, seq). The key rows are
# upserted in that order (the lock order); ON CONFLICT takes an existing row's lock, and retries the
# insert when the row it waited for was deleted (its key emptied), so the statement needs no second
# snapshot. A fresh row's head is the key's earliest job of the batch: pending; every other job waits.
ENQUEUE_SQL = f"""
WITH batch AS (
  SELECT * FROM unnest(%(ids)b::uuid[], %(tenants)b::text[], %(subscriptions)b::uuid[], %(seqs)b::bigint[],
                       %(keys)b::text[]) WITH ORDINALITY AS b(id, tenant_id, subscription_id, event_seq, ordering_key, n)
), heads AS (
  INSERT INTO ordered_keys AS k (subscription_id, ordering_key, tenant_id, head_job_id, head_since)
  SELECT DISTINCT ON (subscription_id, ordering_key) subscription_id, ordering_key, tenant_id, id, now()
    FROM batch ORDER BY subscription_id, ordering_key, event_seq, n
  ON CONFLICT (subscription_id, ordering_key) DO UPDATE SET tenant_id = EXCLUDED.tenant_id
  RETURNING k.subscription_id, k.ordering_key, k.head_job_id, (k.xmax = 0) AS fresh
)
INSERT INTO delivery_jobs ({_JOB_COLUMNS})
SELECT b.id, b.tenant_id, b.subscription_id, b.event_seq,
       CASE WHEN h.fresh AND h.head_job_id = b.id THEN {_PENDING_LITERAL} ELSE '{WAITING}' END,
       0, now(), NULL, '', now(), now(), %(priority)s, b.ordering_key
  FROM batch AS b JOIN heads AS h ON h.subscription_id = b.subscription_id AND h.ordering_key = b.ordering_key
RETURNING state
"""
# Settle, statement 1 of 2: lock the key rows whose head ended, in key order. A job heads at most one
# key, so the head filter picks exactly the batch's keys out of the (subscription x key) index lookups.
LOCK_HEADS_SQL = """
SELECT subscription_id, ordering_key, head_job_id FROM ordered_keys
 WHERE subscription_id = ANY(%(subscriptions)b::uuid[]) AND ordering_key = ANY(%(keys)b::text[])
   AND head_job_id = ANY(%(heads)b::uuid[])
 ORDER BY subscription_id, ordering_key
   FOR UPDATE
"""
# A dead-lettered head under ``block``: its key holds every later job until an operator resumes it.
BLOCK_SQL = """
UPDATE ordered_keys SET blocked_at = now()
 WHERE subscription_id = ANY(%(subscriptions)b::uuid[]) AND ordering_key = ANY(%(keys)b::text[])
   AND head_job_id = ANY(%(heads)b::uuid[])
"""
# Statement 2 of 2, on a snapshot taken after statement 1's locks were granted: it sees every waiting
# job an ingest committed while this settle waited (one statement would run on a snapshot taken
# before the wait, and leave such a job waiting behind a deleted key row forever). Each locked key's
# next waiting job (event order) becomes pending and the head; a key with none loses its row. The promoted
# job is due from when it was stored, not from now, and a live one is claimed as a head (before the
# backlog): under a backlog, each step of a key would otherwise cost the whole backlog's wait (the
# chaos run at 200 events/s moved 1,000 keys ~7 events/s).
ADVANCE_SQL = f"""
WITH next AS MATERIALIZED (
  SELECT l.subscription_id, l.ordering_key, l.head, w.id
    FROM unnest(%(subscriptions)b::uuid[], %(keys)b::text[], %(heads)b::uuid[]) AS l(subscription_id, ordering_key, head)
    LEFT JOIN LATERAL (
      SELECT j.id FROM delivery_jobs AS j
       WHERE j.subscription_id = l.subscription_id AND j.ordering_key = l.ordering_key AND j.{IS_WAITING}
       ORDER BY j.event_seq, j.id LIMIT 1) AS w ON true
), promoted AS (
  UPDATE delivery_jobs SET state = {_PENDING_LITERAL}, next_attempt_at = LEAST(created_at, now()),
                           updated_at = now(), priority = {_HEAD_OF_LIVE}
   WHERE id = ANY(ARRAY(SELECT id FROM next WHERE id IS NOT NULL)) AND {IS_WAITING}
  RETURNING id
), moved AS (
  UPDATE ordered_keys AS k SET head_job_id = n.id, head_since = now(), blocked_at = NULL
    FROM next AS n
   WHERE n.id IS NOT NULL AND k.head_job_id = n.head
     AND k.subscription_id = ANY(%(subscriptions)b::uuid[]) AND k.ordering_key = ANY(%(keys)b::text[])
     AND k.subscription_id = n.subscription_id AND k.ordering_key = n.ordering_key
  RETURNING k.head_job_id
), emptied AS (
  DELETE FROM ordered_keys AS k USING next AS n
   WHERE n.id IS NULL AND k.head_job_id = n.head
     AND k.subscription_id = ANY(%(subscriptions)b::uuid[]) AND k.ordering_key = ANY(%(keys)b::text[])
     AND k.subscription_id = n.subscription_id AND k.ordering_key = n.ordering_key
  RETURNING k.ordering_key
)
SELECT (SELECT count(*) FROM promoted), (SELECT count(*) FROM moved), (SELECT count(*) FROM emptied)
"""
# Resume: lock one blocked key (None when it is not blocked, e.g. a second resume of the same key).
LOCK_BLOCKED_SQL = """
SELECT subscription_id, ordering_key, head_job_id FROM ordered_keys
 WHERE subscription_id = %(subscription)s AND ordering_key = %(key)s AND blocked_at IS NOT NULL
   FOR UPDATE
"""
# Retry: a new job for the head's event, same key, pending and live; it becomes the head.
RETRY_HEAD_SQL = f"""
WITH job AS (
  INSERT INTO delivery_jobs ({_JOB_COLUMNS})
  SELECT %(new)s, tenant_id, subscription_id, event_seq, {_PENDING_LITERAL}, 0, now(), NULL, '', now(), now(),
         {JobPriority.live.value}, ordering_key
    FROM delivery_jobs WHERE id = %(head)s
  RETURNING id
)
UPDATE ordered_keys SET head_job_id = (SELECT id FROM job), head_since = now(), blocked_at = NULL
 WHERE subscription_id = %(subscription)s AND ordering_key = %(key)s AND EXISTS (SELECT 1 FROM job)
RETURNING head_job_id
"""
# Skip: an attempt row on the passed-over head says so; the advance then moves the key on.
SKIP_ATTEMPT_SQL = """
INSERT INTO delivery_attempts (id, job_id, tenant_id, subscription_id, sink_kind, event_seq, attempt_no, outcome,
                               status_code, error_class, detail, latency_ms, attempted_at)
SELECT %(attempt)s, j.id, j.tenant_id, j.subscription_id, COALESCE(s.sink_kind, ''), j.event_seq, j.attempts,
       %(outcome)s, 0, j.last_error_class, %(detail)s, 0, now()
  FROM delivery_jobs AS j LEFT JOIN subscriptions AS s ON s.id = j.subscription_id
 WHERE j.id = %(head)s
"""
# Ordering turned off: lock the subscription's key rows (key order), then, on a fresh snapshot, every
# waiting job becomes pending and the rows go. A dead-lettered head stays as recorded.
LOCK_SUBSCRIPTION_KEYS_SQL = """
SELECT ordering_key FROM ordered_keys WHERE subscription_id = %(subscription)s ORDER BY ordering_key FOR UPDATE
"""
RELEASE_SQL = f"""
WITH released AS (
  UPDATE delivery_jobs SET state = {_PENDING_LITERAL}, next_attempt_at = LEAST(created_at, now()),
                           updated_at = now()
   WHERE subscription_id = %(subscription)s AND {IS_WAITING}
  RETURNING id
), dropped AS (
  DELETE FROM ordered_keys WHERE subscription_id = %(subscription)s RETURNING ordering_key
)
SELECT (SELECT count(*) FROM released), (SELECT count(*) FROM dropped)
"""


class OrderedJob(NamedTuple):
    """A new job of an ordered subscription for one event carrying its key."""

    subscription_id: uuid.UUID
    ordering_key: str
    event_seq: int
    tenant_id: str
    id: uuid.UUID


class EndedHead(NamedTuple):
    """A recorded job of an ordered key that ended (delivered, disabled, dead-lettered); ``block``: its
    dead-letter parks the key (policy ``block``), else the key moves on."""

    subscription_id: uuid.UUID
    ordering_key: str
    job_id: uuid.UUID
    block: bool


class Advanced(NamedTuple):
    """What an advance did: jobs promoted to head, keys moved on, keys emptied (rows deleted)."""

    promoted: int = 0
    moved: int = 0
    emptied: int = 0


def run(cursor: psycopg.Cursor, steps: Steps[T]) -> T:
    """Run ``steps`` on a sync cursor, in the caller's transaction; returns the operation's value."""
    try:
        statement = next(steps)
        while True:
            cursor.execute(*statement)
            statement = steps.send(cursor.fetchall() if cursor.description else [])
    except StopIteration as done:
        return done.value


async def arun(cursor: psycopg.AsyncCursor, steps: Steps[T]) -> T:
    """Run ``steps`` on an async cursor, in the caller's transaction; returns the operation's value."""
    try:
        statement = next(steps)
        while True:
            await cursor.execute(*statement)
            statement = steps.send(await cursor.fetchall() if cursor.description else [])
    except StopIteration as done:
        return done.value


def session_cursor(session: Any) -> psycopg.Cursor:
    """A psycopg cursor on a SQLAlchemy session's connection, inside the session's transaction."""
    return session.connection().connection.driver_connection.cursor()


def enqueue(jobs: Iterable[OrderedJob], *, priority: int) -> Steps[int]:
    """Store ordered jobs (one statement): a fresh key's earliest job pending, the rest waiting.
    Returns how many are pending (due now)."""
    batch = sorted(jobs)  # (subscription, key, seq): the key rows' lock order, and event order per key
    if not batch:
        return 0
    rows = yield ENQUEUE_SQL, {"ids": [job.id for job in batch], "tenants": [job.tenant_id for job in batch],
                               "subscriptions": [job.subscription_id for job in batch],
                               "seqs": [job.event_seq for job in batch], "keys": [job.ordering_key for job in batch],
                               "priority": priority}
    return sum(1 for (state,) in rows if state == PENDING)


def end_heads(ended: Iterable[EndedHead]) -> Steps[Advanced]:
    """In the settle's transaction: lock the ended heads' key rows, block those whose policy blocks,
    advance the others (a second statement, on a snapshot taken after the locks)."""
    heads = {item.job_id: item for item in ended}
    if not heads:
        return Advanced()
    locked = yield LOCK_HEADS_SQL, _key_arrays(heads.values())
    blocking = [heads[head] for _, _, head in locked if heads[head].block]
    moving = [heads[head] for _, _, head in locked if not heads[head].block]
    if blocking:
        yield BLOCK_SQL, _key_arrays(blocking)
    if not moving:
        return Advanced()
    return (yield from _advance(moving))


def _advance(heads: Sequence[EndedHead]) -> Steps[Advanced]:
    """Statement 2: each locked key's next waiting job becomes its head, or the key's row goes."""
    [row] = yield ADVANCE_SQL, _key_arrays(heads)
    return Advanced(*row)


def _key_arrays(heads: Iterable[EndedHead]) -> dict[str, list[Any]]:
    listed = sorted(heads)
    return {"subscriptions": [h.subscription_id for h in listed], "keys": [h.ordering_key for h in listed],
            "heads": [h.job_id for h in listed]}


def retry_head(subscription_id: uuid.UUID, key: str) -> Steps[uuid.UUID | None]:
    """An operator's retry of a blocked key: a new job for the head's event becomes the head, due now.
    Returns the new head's id; None when the key is not blocked."""
    where = {"subscription": subscription_id, "key": key}
    locked = yield LOCK_BLOCKED_SQL, where
    if not locked:
        return None
    rows = yield RETRY_HEAD_SQL, {**where, "head": locked[0][2], "new": new_id()}
    return rows[0][0] if rows else None


def skip_head(subscription_id: uuid.UUID, key: str) -> Steps[uuid.UUID | None]:
    """An operator's skip of a blocked key: an attempt on the head records the skip, and the key moves on.
    Returns the passed-over head's id; None when the key is not blocked."""
    where = {"subscription": subscription_id, "key": key}
    locked = yield LOCK_BLOCKED_SQL, where
    if not locked:
        return None
    head = locked[0][2]
    yield SKIP_ATTEMPT_SQL, {"attempt": new_id(), "head": head, "outcome": SKIP_OUTCOME, "detail": SKIP_DETAIL}
    yield from _advance([EndedHead(subscription_id, key, head, block=False)])
    return head


def release(subscription_id: uuid.UUID) -> Steps[int]:
    """Ordering turned off: every waiting job of the subscription becomes pending and its key rows go.
    Returns how many jobs were released."""
    where = {"subscription": subscription_id}
    yield LOCK_SUBSCRIPTION_KEYS_SQL, where
    [(released, _)] = yield RELEASE_SQL, where
    return released

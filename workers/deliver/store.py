"""The delivery engine's SQL: claim a batch under a lease, read what it needs, record it in one go.

A claim moves each job's ``next_attempt_at`` to the end of its lease and stamps ``lease_until``
with the same instant (the lease token). A worker killed mid-batch never records, so its jobs
simply come due again when the lease runs out. Recording is guarded by the token: a worker whose
lease expired (and whose jobs another worker re-claimed) records nothing for them. The claim
commits without waiting for the WAL flush; the recording waits for it (an outcome is durable).
An ordered job that the recording ends (delivered, disabled, dead-lettered) hands its key on, or
blocks it, in the same transaction (hub.dataplane.ordering, N78).
"""

from __future__ import annotations

import uuid
from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import NamedTuple

import psycopg

from hub.dataplane import ordering
from hub.dataplane.models import (
    DUE_JOB_STATES, FINISHED_JOB_STATES, DeliveryAttempt, DeliveryJob, JobState, state_in,
)
from hub.subscription.delivery_view import VIEW_COLUMNS, DeliveryView, delivery_view
from hub.tableshape import column_list, columns, copy_types
from workers.deliver.lanes import FAIR_CLAIM_SQL, ONLY, LaneCursor, for_tenants
from workers.deliver.pacing import Grant, reserve, wanted_slots
from workers.deliver.shards import ShardGroup


class ClaimedJob(NamedTuple):
    """A claimed job's columns (its ``delivery_jobs`` row, as the claim returns it). A named tuple: one is
    made per job of every claim, and a tuple is made several times faster than a frozen dataclass."""

    id: uuid.UUID
    tenant_id: str
    subscription_id: uuid.UUID
    event_seq: int
    state: str  # a JobState value
    attempts: int
    created_at: datetime
    priority: int  # a JobPriority value
    ordering_key: str | None  # an ordered job's key (N77); None: unordered


class AttemptRow(NamedTuple):
    """One ``delivery_attempts`` row as the settle COPYs it: the model's columns, in table order."""

    id: uuid.UUID
    job_id: uuid.UUID
    tenant_id: str
    subscription_id: uuid.UUID
    sink_kind: str
    event_seq: int
    attempt_no: int
    outcome: str  # an Outcome value
    status_code: int
    error_class: str
    detail: str
    latency_ms: int
    attempted_at: datetime


CLAIMED_COLUMNS = columns(DeliveryJob, *ClaimedJob._fields)
ATTEMPT_COLUMNS = column_list(DeliveryAttempt, *AttemptRow._fields)
ATTEMPT_TYPES = copy_types(DeliveryAttempt, *AttemptRow._fields)
# What the engine reads of a subscription: the row its delivery view is built from.
SUBSCRIPTION_COLUMNS = VIEW_COLUMNS

# The claimed columns, then the lease token, then the last lane the claim visited (its loop's next start):
# the fair claim of workers.deliver.lanes (N98), which took the place of one due-time order across every
# tenant (ordered keys' heads first, N83; then live jobs; then a recovery's, N58): heads still go first
# within their lane, and live jobs before bulk ones within the batch.
_RETURNING = ", ".join(f"j.{name}" for name in CLAIMED_COLUMNS)
CLAIM_SQL = for_tenants(FAIR_CLAIM_SQL.format(returning=_RETURNING), False)
# One shard group's claim (N109): every read of delivery_jobs and the lease update name its tenants.
GROUP_CLAIM_SQL = for_tenants(FAIR_CLAIM_SQL.format(returning=_RETURNING), True)
# Every statement of the claim and the settle reaches delivery_jobs and event_log only through an index
# condition on the batch's keys (``= ANY(<the batch's ids>)``), and joins (when it must) by hashing, so its
# work is bounded by the batch whatever the planner believes. It was misled by statistics taken while a
# backlog drains (nearly every lease NULL) and by the generic plan a connection's prepared statement keeps
# from when the table held a handful of jobs: it picked a whole-table scan of delivery_jobs nested around
# the batch, comparing every job of the table with every job of the batch, 0.15-8.5 s a statement in the
# deliver bench (auto_explain), the cause of the runs that collapsed to ~450 deliveries/s.
# Sequential scans and nested loops are off here (tests/deliver/test_store_plans.py). So is JIT compilation:
# the disabled nodes' cost penalty pushes a plan that must keep one (the ordered advance's LATERAL lookup of
# each key's next job, N78) past jit_above_cost, and compiling it took ~280 ms of a 300 ms statement.
INDEX_LOOKUPS_SQL = ("SELECT set_config('enable_seqscan', 'off', true), set_config('enable_nestloop', 'off', true), "
                     "set_config('jit', 'off', true)")
# The claim's settings in the same round trip: those plans, and a COMMIT that does not wait for the WAL flush.
CLAIM_SETTINGS_SQL = INDEX_LOOKUPS_SQL + ", set_config('synchronous_commit', 'off', true)"
# The batch's arrays travel as binary parameters (%b) and the rows come back binary: psycopg's text
# form of a list of timestamps or UUIDs costs several microseconds an element, its binary form a tenth.
EVENTS_SQL = """
SELECT e.tenant_id, e.seq, e.attributes::text, e.data::text
  FROM event_log AS e
  JOIN unnest(%(tenants)b::text[], %(seqs)b::bigint[]) AS k(tenant_id, seq)
    ON e.tenant_id = k.tenant_id AND e.seq = k.seq
 WHERE e.tenant_id = ANY(%(distinct_tenants)b::text[]) AND e.seq = ANY(%(seqs)b::bigint[])
"""
SUBSCRIPTIONS_SQL = f"SELECT {', '.join(SUBSCRIPTION_COLUMNS)} FROM subscriptions WHERE id = ANY(%b::uuid[])"
# The lease token is a column of the joined set, not a constant: ``lease_until = <constant>`` is a restriction
# the planner estimates from statistics in which nearly every lease is NULL (one row). The ids are named
# once: a named parameter used twice is sent (and dumped) once.
# A live ordered job that stays due (a retry, a deferral) becomes its key's head in the claim's order.
_HEAD_PRIORITY = ordering.head_of_live("j", when=f"j.ordering_key IS NOT NULL AND v.{state_in(DUE_JOB_STATES)}")
SETTLE_SQL = f"""
UPDATE delivery_jobs AS j
   SET state = v.state, attempts = v.attempts, next_attempt_at = v.next_at, lease_until = NULL,
       last_error_class = v.err, updated_at = %(now)s, priority = {_HEAD_PRIORITY}
  FROM unnest(%(ids)b::uuid[], %(states)b::text[], %(attempts)b::int[], %(next_at)b::timestamptz[],
              %(errors)b::text[], %(leases)b::timestamptz[])
       AS v(id, state, attempts, next_at, err, lease)
 WHERE {ONLY}j.id = ANY(%(ids)b::uuid[]) AND j.id = v.id AND j.lease_until = v.lease
RETURNING j.id
"""
# One shard group's part of a settle (N109): its tenants named, so Citus sends it to their shard only.
GROUP_SETTLE_SQL = for_tenants(SETTLE_SQL, True)
SETTLE_SQL = for_tenants(SETTLE_SQL, False)


class StoredEvent(NamedTuple):
    attributes_json: str
    data_json: str | None


@dataclass
class Claim:
    """One claimed batch and everything needed to prepare its deliveries (a subscription: its delivery view)."""

    jobs: list[ClaimedJob]
    lease: datetime | None
    events: dict[tuple[str, int], StoredEvent]
    subscriptions: dict[uuid.UUID, DeliveryView]
    grants: dict[uuid.UUID, Grant] = field(default_factory=dict)  # N56: limited subscriptions' slots
    granted_at: float = 0.0  # the event loop's time when the grants were read
    full: bool = False  # the claim took all it could: due work may be left (a backlog)

    def blocking(self) -> frozenset[uuid.UUID]:
        """The subscriptions whose ordering policy parks a key when its head dead-letters (N77)."""
        return frozenset(sub_id for sub_id, view in self.subscriptions.items()
                         if view.ordering is not None and view.ordering.blocks)


class Settled(NamedTuple):
    """One job's recorded end of this round: its row update and, when tried or ended, its attempt."""

    job: ClaimedJob
    state: str  # a JobState value
    attempts: int
    next_attempt_at: datetime
    error_class: str
    attempt: AttemptRow | None  # None: held or deferred, nothing happened


async def claim(conn: psycopg.AsyncConnection, *, limit: int, lease_seconds: float,
                bulk_limit: int | None = None, lanes: LaneCursor | None = None,
                caps: dict[uuid.UUID, int] | None = None, group: ShardGroup | None = None) -> Claim:
    """Claim up to ``limit`` due jobs, each lane its fair share (N98; ``lanes``: the loop's place and the
    weights; ``caps``: the most jobs a hanging destination's lanes may take), live ones first and at
    most ``bulk_limit`` bulk ones (N58; None: no cap, 0: live ones only), read their events and their
    subscriptions (each as its delivery view), and take the send slots of the rate-limited deliverable ones
    (N56), all in one transaction. ``group``: only that shard group's tenants (N109; None: every tenant)."""
    lanes = lanes or LaneCursor()
    place = None if group is None else group.shard
    params = lanes.params(limit=limit, lease=lease_seconds, caps=caps, group=place,
                          bulk=limit if bulk_limit is None else bulk_limit)
    if group is not None:
        params["tenants"] = group.tenants
    async with conn.transaction():
        cursor = conn.cursor()
        # The claim's COMMIT does not wait for the WAL flush: a claim lost in a database crash only
        # makes its jobs due again (the lease token then matches nothing, so nothing is recorded
        # twice), and the flush was the slowest step between a job's commit and its request.
        await cursor.execute(CLAIM_SETTINGS_SQL)
        await cursor.execute(CLAIM_SQL if group is None else GROUP_CLAIM_SQL, params, binary=True)
        rows = await cursor.fetchall()
        lanes.moved_to(*rows[0][-2:], group=place)  # one row of NULLs and the cursor when nothing was claimed
        if rows[0][0] is None:
            return Claim([], None, {}, {})
        jobs = [ClaimedJob._make(row[:-3]) for row in rows]
        keys = sorted({(job.tenant_id, job.event_seq) for job in jobs})
        await cursor.execute(EVENTS_SQL, {"tenants": [k[0] for k in keys], "seqs": [k[1] for k in keys],
                                          "distinct_tenants": sorted({k[0] for k in keys})}, binary=True)
        events = {(t, s): StoredEvent(a, d) for t, s, a, d in await cursor.fetchall()}
        await cursor.execute(SUBSCRIPTIONS_SQL, (list({job.subscription_id for job in jobs}),), binary=True)
        now = datetime.now(UTC)
        views = {row[0]: delivery_view(row, now) for row in await cursor.fetchall()}
        # Only a subscription the batch sends to takes rate slots.
        rates = {sub_id: view.rate_limit_per_second for sub_id, view in views.items() if view.deliverable}
        grants, granted_at = await reserve(cursor, wanted=wanted_slots((job.subscription_id for job in jobs), rates),
                                           rates=rates)
    return Claim(jobs, rows[0][-3], events, views, grants, granted_at, full=_full(jobs, limit, lanes.lane_max))


def _full(jobs: list[ClaimedJob], limit: int, lane_max: int) -> bool:
    """Whether a claim took all it could: its limit, or one lane's most (that lane may have more due), so its
    loop claims again at once, as on any backlog, instead of waiting for the pacing's next slot."""
    if len(jobs) >= limit:
        return True
    return max(Counter(job.subscription_id for job in jobs).values()) >= lane_max


class Recorded(NamedTuple):
    """What a settle recorded: the ids of the jobs still under the lease, and how many ordered jobs it made
    due by handing their keys on (N78)."""

    ids: set[uuid.UUID]
    promoted: int = 0
    whole: bool = False  # every settled job was still under the lease (the usual case)

    def holds(self, job_id: uuid.UUID) -> bool:
        """Whether the settle recorded this job (without a lookup when it recorded them all)."""
        return self.whole or job_id in self.ids


async def settle(cursor: psycopg.AsyncCursor, *, settled: Sequence[Settled], lease: datetime | Sequence[datetime],
                 now: datetime, blocking: frozenset[uuid.UUID] = frozenset(),
                 shard_of: Mapping[str, int] | None = None) -> Recorded:
    """Update the jobs still under their lease (``lease``: the batch's, or one per settled job, in order, when
    a tail round records several batches' jobs), COPY their attempts, and hand on (or, for a dead-letter of a
    subscription in ``blocking``, block) the keys of the ordered jobs that ended. A job appears once. One
    statement, or one per shard group with ``shard_of``, a tenant's shard (N109)."""
    if not settled:
        return Recorded(set(), whole=True)  # nothing to record, nothing skipped
    leases = [lease] * len(settled) if isinstance(lease, datetime) else list(lease)
    await cursor.execute(INDEX_LOOKUPS_SQL)
    ids: set[uuid.UUID] = set()
    for tenants, part in by_shard(list(zip(settled, leases, strict=True)), shard_of):
        params = {"now": now, "ids": [s.job.id for s, _ in part], "states": [s.state for s, _ in part],
                  "attempts": [s.attempts for s, _ in part], "next_at": [s.next_attempt_at for s, _ in part],
                  "errors": [s.error_class for s, _ in part], "leases": [held for _, held in part]}
        if tenants is not None:
            params["tenants"] = tenants
        await cursor.execute(SETTLE_SQL if tenants is None else GROUP_SETTLE_SQL, params, binary=True)
        ids.update(row[0] for row in await cursor.fetchall())
    recorded = Recorded(ids, whole=len(ids) == len(settled))
    await write_attempts(cursor, [s.attempt for s in settled if s.attempt is not None and recorded.holds(s.job.id)])
    ended = ended_heads(settled, recorded, blocking)
    advanced = await ordering.arun(cursor, ordering.end_heads(ended)) if ended else ordering.Advanced()
    return recorded._replace(promoted=advanced.promoted)


def by_shard(settled: Sequence[tuple[Settled, datetime]], shard_of: Mapping[str, int] | None,
             ) -> list[tuple[list[str] | None, list[tuple[Settled, datetime]]]]:
    """The settled jobs (each with its lease) in one lock order across workers, as one part (``shard_of``
    None: tenants not named), or one part per shard (its tenants, its jobs), shards in order: a tenant not in
    ``shard_of`` is a part of its own (one tenant is one shard too)."""
    # By the ids' integers, the order UUIDs compare in (their own comparison is Python code, called some
    # n·log n times a batch).
    ordered = sorted(settled, key=lambda pair: pair[0].job.id.int)
    if shard_of is None:
        return [(None, ordered)]
    parts: dict[tuple[int, str], list[tuple[Settled, datetime]]] = {}
    for pair in ordered:
        tenant = pair[0].job.tenant_id
        shard = shard_of.get(tenant)
        parts.setdefault((shard, "") if shard is not None else (-1, tenant), []).append(pair)
    return [(sorted({pair[0].job.tenant_id for pair in part}), part) for _, part in sorted(parts.items())]


async def write_attempts(cursor: psycopg.AsyncCursor, rows: Sequence[AttemptRow]) -> None:
    """COPY ``rows`` into ``delivery_attempts`` (nothing when there are none)."""
    if not rows:
        return
    async with cursor.copy(f"COPY delivery_attempts ({ATTEMPT_COLUMNS}) FROM STDIN (FORMAT BINARY)") as copy:
        copy.set_types(ATTEMPT_TYPES)
        for row in rows:
            await copy.write_row(row)


_ENDING = frozenset(state.value for state in FINISHED_JOB_STATES)


def ended_heads(settled: Sequence[Settled], recorded: Recorded,
                blocking: frozenset[uuid.UUID]) -> list[ordering.EndedHead]:
    """The recorded ordered jobs whose new state ends them; a dead-letter blocks its key when its
    subscription's policy is ``block`` (``blocking``)."""
    return [ordering.EndedHead(s.job.subscription_id, s.job.ordering_key, s.job.id,
                               s.state == JobState.dead_lettered and s.job.subscription_id in blocking)
            for s in settled
            if s.job.ordering_key is not None and s.state in _ENDING and recorded.holds(s.job.id)]


BACKLOG_SQL = f"""
SELECT count(*), COALESCE(EXTRACT(EPOCH FROM now() - min(next_attempt_at) FILTER (WHERE next_attempt_at <= now())), 0)
  FROM delivery_jobs WHERE {state_in(DUE_JOB_STATES)}
"""


async def backlog(conn: psycopg.AsyncConnection) -> tuple[int, float]:
    """Jobs pending or retrying, and the age in seconds of the oldest one that is due."""
    async with conn.transaction():
        cursor = await conn.execute(BACKLOG_SQL)
        count, age = await cursor.fetchone() or (0, 0)
    return int(count), float(age)

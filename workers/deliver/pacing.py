"""Rate limits per destination (N56): a subscription's ``rate_limit_per_second`` across every ``hub deliver``.

The shared state is one ``delivery_pacing`` row per limited subscription: ``next_slot``, the earliest
instant its next request may go out. A claim holding jobs of limited subscriptions locks their rows
(in id order, inside the claim's transaction) and grants each one the slots ``next_slot``,
``next_slot + 1/rate``, … that start within ``HORIZON`` seconds, then moves ``next_slot`` past them.
Slots are spaced ``1/rate`` apart whichever process holds them, so no second ever sees more than
``rate`` of them. A ``next_slot`` in the past counts as now: an idle subscription keeps no credit
and so cannot burst after a pause.

The engine sends each granted job at its slot (never before) and drops a send that would go out
more than ``GRACE`` late (the slot is lost, the job goes back untried), which bounds the bunching
at the receiver. Jobs beyond the grant are not tried at all: they go back due at the moment their
slot would enter the horizon, with their attempt count unchanged and no attempt row.

Refused jobs queue behind each other (N58): the row's ``waiting_until`` is the end of the queue of
slots already promised to jobs refused earlier, and a claim's refusals take the slots after it (and
move it on), so a large backlog is spread over the time its rate needs instead of every claim
sending its refusals back into the same few seconds to be claimed and refused again.
"""

from __future__ import annotations

import asyncio
import math
import uuid
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from datetime import datetime, timedelta

import psycopg

HORIZON = 0.5  # seconds of slots one claim may take: the longest a batch waits for its last paced send
GRACE = 0.025  # a paced send later than this after its slot is not made (the bound on bunching)
MIN_WAIT = 0.02  # the shortest wait a refused job is given (it is not claimed back immediately)

# Lock (creating when missing) each limited subscription's row, in id order so concurrent claims
# never deadlock; the time is read after the lock is held, so a claim that waited sees the slot its
# predecessor left and measures from the moment it may use it.
LOCK_SQL = """
INSERT INTO delivery_pacing AS p (subscription_id, next_slot)
SELECT id, clock_timestamp() FROM unnest(%s::uuid[]) AS k(id) ORDER BY id
ON CONFLICT (subscription_id) DO UPDATE SET next_slot = p.next_slot
RETURNING p.subscription_id, p.next_slot, p.waiting_until, clock_timestamp()
"""
ADVANCE_SQL = """
UPDATE delivery_pacing AS p SET next_slot = v.next_slot, waiting_until = v.waiting_until
  FROM unnest(%s::uuid[], %s::timestamptz[], %s::timestamptz[]) AS v(id, next_slot, waiting_until)
 WHERE p.subscription_id = v.id
"""


@dataclass(frozen=True, slots=True)
class Grant:
    """One claim's share of a subscription's rate, measured in seconds from the grant."""

    offsets: tuple[float, ...]  # when each admitted job may be sent, ascending, 1/rate apart
    later: tuple[float, ...]  # when each refused job's queued slot would enter the horizon (its wait)
    next_slot: datetime  # the subscription's next free slot after this grant
    waiting_until: datetime | None = None  # the end of the refusals' queue after this grant (None: no queue)


def grant(*, next_slot: datetime, now: datetime, wanted: int, rate: int, horizon: float = HORIZON,
          waiting_until: datetime | None = None) -> Grant:
    """The slots ``wanted`` jobs get at ``rate`` per second when the next free slot is ``next_slot`` and
    the slots promised to earlier refusals run until ``waiting_until`` (None or past: no queue).

    Pure: the caller holds the subscription's row lock and stores ``next_slot`` and ``waiting_until`` back.
    """
    interval = 1.0 / rate
    first = max(0.0, (next_slot - now).total_seconds())  # a past slot is now: no credit for idle time
    room = horizon - first
    # 1e-9: a slot exactly at the horizon is inside it, whatever the float rounding.
    admitted = 0 if room < 0 else min(wanted, math.floor(room / interval + 1e-9) + 1)
    offsets = tuple(first + index * interval for index in range(admitted))
    after_grant = first + admitted * interval
    refused = wanted - admitted
    # The refusals queue behind those of earlier claims: slots after both this grant and the queue's end.
    queue = max(after_grant, (waiting_until - now).total_seconds() if waiting_until is not None else 0.0)
    later = tuple(max(MIN_WAIT, queue + index * interval - horizon) for index in range(refused))
    tail = now + timedelta(seconds=queue + refused * interval) if refused else waiting_until
    return Grant(offsets, later, now + timedelta(seconds=after_grant), tail)


def wanted_slots(jobs: Iterable[uuid.UUID], rates: Mapping[uuid.UUID, int | None]) -> dict[uuid.UUID, int]:
    """How many jobs of each limited subscription a claim holds (``jobs``: their subscription ids)."""
    counts: dict[uuid.UUID, int] = {}
    for sub_id in jobs:
        if rates.get(sub_id):
            counts[sub_id] = counts.get(sub_id, 0) + 1
    return counts


async def reserve(cursor: psycopg.AsyncCursor, *, wanted: Mapping[uuid.UUID, int],
                  rates: Mapping[uuid.UUID, int]) -> tuple[dict[uuid.UUID, Grant], float]:
    """Grant each subscription of ``wanted`` its slots and store its next free slot (in the caller's
    transaction, which holds the rows' locks until it commits); also returns the event loop's time
    the grants count from."""
    if not wanted:
        return {}, 0.0
    await cursor.execute(LOCK_SQL, (sorted(wanted),))
    rows = await cursor.fetchall()
    # Read as soon as the database's clock was: the offsets count from here on this worker's clock,
    # so the gap between the two (one reply's travel) is all a worker can add to a slot.
    granted_at = asyncio.get_running_loop().time()
    grants = {sub_id: grant(next_slot=slot, now=now, wanted=wanted[sub_id], rate=rates[sub_id], waiting_until=until)
              for sub_id, slot, until, now in rows}
    ids = sorted(grants)
    await cursor.execute(ADVANCE_SQL, (ids, [grants[sub_id].next_slot for sub_id in ids],
                                       [grants[sub_id].waiting_until for sub_id in ids]))
    return grants, granted_at


@dataclass(frozen=True, slots=True)
class Plan:
    """What pacing does with a batch's prepared deliveries (by their index in the batch)."""

    at: dict[int, float]  # a paced delivery's send time on the event loop's clock
    wait: dict[int, float]  # a refused delivery's seconds until it is due again


def plan(subscriptions: Iterable[uuid.UUID], grants: Mapping[uuid.UUID, Grant], granted_at: float) -> Plan:
    """Hand each limited subscription's deliveries (``subscriptions``: one id per delivery, in batch
    order) its granted slots in turn, then its refusals; ``granted_at``: the loop time of the grant."""
    at: dict[int, float] = {}
    wait: dict[int, float] = {}
    taken: dict[uuid.UUID, int] = {}
    for index, sub_id in enumerate(subscriptions):
        found = grants.get(sub_id)
        if found is None:
            continue
        turn = taken[sub_id] = taken.get(sub_id, -1) + 1
        if turn < len(found.offsets):
            at[index] = granted_at + found.offsets[turn]
        else:
            later = found.later
            wait[index] = later[turn - len(found.offsets)] if turn - len(found.offsets) < len(later) else HORIZON
    return Plan(at, wait)

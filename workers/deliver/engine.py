"""The delivery engine: claim a batch, deliver it with bounded concurrency, record it in one transaction.

Several pipelines per process each loop claim → deliver → settle on their own database
connection; an idle one waits for ingest's wake-up or its poll interval. Requests go out under a
global limit and a per-destination limit; a job that cannot get its destination's slot within
``deliver_host_wait_seconds`` goes back untried (no attempt, no budget), so one hanging endpoint
holds at most its own slots and never a whole batch for long. A rate-limited subscription's jobs
(N56) are sent one by one at the slots the claim granted them; those beyond the grant go back untried.
"""

from __future__ import annotations

import asyncio
import functools
import logging
import time
from collections import deque
from datetime import UTC, datetime, timedelta
from functools import lru_cache
from typing import NamedTuple

import psycopg

from hub.config import Settings
from hub.dataplane.models import JobPriority
from hub.dataplane.reconnect import AsyncConnector
from hub.metrics import IN_FLIGHT
from hub.providers.registry import SinkSet, SinkUnavailable
from hub.sinks.base import NOT_STARTED, START_BY, PreparedDelivery
from hub.sinks.vocabulary import ErrorClass
from hub.subscription.deliverability import Deliverability
from workers.deliver import store
from workers.deliver.bookkeeping import Part, record
from workers.deliver.bulk import BulkAllowance
from workers.deliver.lanes import LaneCursor, parse_weights
from workers.deliver.limits import Limits, acquire
from workers.deliver.outcomes import UNTRIED_SECONDS, Sent, ended, outcomes_of, settled_job
from workers.deliver.pacing import GRACE, plan
from workers.deliver.policy import RetryPolicy, policy_from
from workers.deliver.prepare import NotDeliverable, destination_key, prepare
from workers.deliver.queues import destination_queues
from workers.deliver.shards import ShardGroups
from workers.deliver.stalls import Stalls
from workers.deliver.store import Claim, ClaimedJob, Settled
from workers.deliver.tails import Tail, Tails
from workers.deliver.tenant_gauges import ClaimShares
from workers.deliver.traces import end_attempts, start_attempts

log = logging.getLogger("hub.deliver.engine")

BULK = JobPriority.bulk.value
DELIVERABLE = Deliverability.deliverable  # compared by identity per job (``ok`` is a property call)


class in_flight:  # a process-wide counter, not a type
    """Requests in flight in this process; the gauge reads it when scraped (a Gauge's inc and dec take a
    lock each, twice per delivery)."""

    count = 0


IN_FLIGHT.set_function(lambda: in_flight.count)


@lru_cache(maxsize=4096)
def _millis(milliseconds: int) -> timedelta:
    """A try's latency as a timedelta (one object per value: a try's end is its start plus it)."""
    return timedelta(milliseconds=milliseconds)


class Deadlines(NamedTuple):
    """A batch's sending deadlines, from when it began: loop times, but ``start_by``, a monotonic reading."""

    waited: float  # until when a sender waits for a slot and works on regardless (host wait, half the lease at most)
    latest: float  # until when a delivering destination is worked on (half the lease)
    start_by: float  # the latest a try may begin, in a sink's thread too (half the lease, N108)


class Batch(NamedTuple):
    """One batch: the jobs claimed, the ordered jobs its settle made due (their keys' next events), and
    whether its claim took all it could (more may be due)."""

    claimed: int
    promoted: int = 0
    full: bool = False


class Engine:
    """Delivers due jobs until ``stop`` is set."""

    def __init__(self, *, settings: Settings, sinks: SinkSet | None = None,
                 tail_connect: AsyncConnector | None = None) -> None:
        self.settings = settings
        self.sinks = sinks or SinkSet(settings=settings)
        self.policy: RetryPolicy = policy_from(settings.deliver_retry_ladder_seconds, settings.deliver_retry_jitter,
                                               settings.deliver_hold_recheck_seconds)
        self.bulk = BulkAllowance(settings.deliver_bulk_rate_per_second, settings.deliver_bulk_batch_size)
        self.limits = Limits(settings.deliver_concurrency, settings.deliver_per_host_concurrency,
                             settings.deliver_host_wait_seconds)
        self.tails = Tails(tail_connect, settings.deliver_record_wait_seconds, self._record)
        self.stalls = Stalls(settings.deliver_hanging_after_seconds)
        self.shares = ClaimShares()
        weights = parse_weights(settings.deliver_tenant_weights)
        self.lanes = LaneCursor(weights=weights, lanes=settings.deliver_claim_lanes,
                                lane_max=settings.deliver_lane_batch_max)
        # The express loop's own place in the lanes, and a lane's most a few jobs: its batches stay short.
        self.express_lanes = LaneCursor(weights=weights, lanes=settings.deliver_claim_lanes,
                                        lane_max=settings.deliver_express_busy)
        # Busy, to the express loop: the threshold's requests out, or every slot of the destination taken.
        self.express_busy = min(settings.deliver_express_busy, self.limits.per_destination_size)
        self.shards = ShardGroups()

    async def run_batch(self, conn: psycopg.AsyncConnection, *, bulk: bool = True, express: bool = False) -> Batch:
        """Claim, deliver and record one batch (``bulk`` False: of live jobs only, N58; ``express``: of the
        lanes whose destination is not busy, N98); returns how many jobs it claimed, and how many ordered
        jobs its settle made due (N78). The sends still out after the record wait are recorded apart, when
        they end (N83)."""
        caps = self.stalls.caps(self.limits.free)
        if express:
            caps.update(self.stalls.busy(self.express_busy))
        claim = await self.shards.claim(conn, functools.partial(
            store.claim, conn, limit=self.settings.deliver_batch_size, caps=caps,
            lease_seconds=self.settings.deliver_lease_seconds, bulk_limit=self.bulk.available() if bulk else 0,
            lanes=self.express_lanes if express else self.lanes), lambda claim: not claim.jobs)  # on Citus one shard group's (N109)
        if claim is None or not claim.jobs:
            return Batch(0)
        self.shares.add(job.tenant_id for job in claim.jobs)
        self.bulk.spend(sum(1 for job in claim.jobs if job.priority == BULK))
        settled, sends, at = self._plan(claim)
        results: list[Sent | None] = [None] * len(sends)
        # The express loop never waits for a destination's slot: a job whose slot is taken goes back untried.
        healthy, hanging = self._send_all([delivery for _, delivery in sends], at, results,
                                          wait=0.0 if express else self.limits.wait_seconds)
        sending = asyncio.gather(healthy, hanging)
        # A hanging destination's sends never hold the record (N98): it waits for the others' only.
        awaited = sending if hanging.done() or self.tails.connect is None else healthy
        # The express loop's untried jobs are due at once: a pipeline, which waits for the slot, takes them.
        untried = 0.0 if express else UNTRIED_SECONDS
        if await self.tails.ended(awaited) and sending.done():
            outcomes, tries = outcomes_of(self.policy, sends, results, range(len(sends)), untried_seconds=untried)
        else:
            ended_now = [index for index, sent in enumerate(results) if sent is not None]
            rest = [index for index, sent in enumerate(results) if sent is None]
            self.tails.detach(Tail(results, rest, sending, lambda indexes: self._part(claim, sends, results, indexes)))
            outcomes, tries = outcomes_of(self.policy, sends, results, ended_now, untried_seconds=untried)
        assert claim.lease is not None
        promoted = await self._record(conn, [Part(claim.lease, claim.blocking(), settled + outcomes, tries)])
        return Batch(len(claim.jobs), promoted, claim.full)

    def _part(self, claim: Claim, sends: list[tuple[ClaimedJob, PreparedDelivery]], results: list[Sent | None],
              indexes: list[int]) -> Part:
        """The record of the sends ``indexes`` names (of a batch's tail), under the batch's lease."""
        assert claim.lease is not None
        return Part(claim.lease, claim.blocking(), *outcomes_of(self.policy, sends, results, indexes))

    async def _record(self, conn: psycopg.AsyncConnection, parts: list[Part]) -> int:
        """``parts`` (a batch's, or a tail round's) in one transaction; how many ordered jobs it made due."""
        return await record(conn, parts, disable_after=self.settings.deliver_auto_disable_seconds,
                             shard_of=self.shards.shard_of)

    def _plan(self, claim: Claim) -> tuple[list[Settled], list[tuple[ClaimedJob, PreparedDelivery]], dict[int, float]]:
        """The jobs settled without a send (held, ended, above their rate), the sends, and the paced
        sends' slots (their loop times, by index)."""
        now = datetime.now(UTC)
        settled: list[Settled] = []
        sends: list[tuple[ClaimedJob, PreparedDelivery]] = []
        bodies: dict[int, tuple] = {}
        for job in claim.jobs:
            outcome = self._triage(job, claim, now, bodies)
            if isinstance(outcome, PreparedDelivery):
                sends.append((job, outcome))
            else:
                settled.append(outcome)
        sends, at = self._pace(claim, sends, settled, now)
        return settled, sends, at

    def _pace(self, claim: Claim, sends: list[tuple[ClaimedJob, PreparedDelivery]], settled: list[Settled],
              now: datetime) -> tuple[list[tuple[ClaimedJob, PreparedDelivery]], dict[int, float]]:
        """N56: the sends that go out (with the loop time of each paced one's slot); the jobs above their
        subscription's rate are settled back untried, due when their slot would come into reach."""
        if not claim.grants:
            return sends, {}
        paced = plan((job.subscription_id for job, _ in sends), claim.grants, claim.granted_at)
        for index, seconds in paced.wait.items():
            job = sends[index][0]  # no attempt row and the same attempt count: no retry budget spent
            decision = self.policy.deferred(state=job.state, tries=job.attempts, now=now, seconds=seconds)
            settled.append(settled_job(job, decision, None))
        kept = [index for index in range(len(sends)) if index not in paced.wait]
        return [sends[index] for index in kept], {new: paced.at[old] for new, old in enumerate(kept) if old in paced.at}

    def _triage(self, job: ClaimedJob, claim: Claim, now: datetime,
                bodies: dict[int, tuple]) -> PreparedDelivery | Settled:
        """A delivery to send now, or the job's settled state when it is not sent: the subscription's
        deliverability ends its jobs (deleted, disabled) or holds them (not verified)."""
        view = claim.subscriptions.get(job.subscription_id)
        if view is None:  # the row is gone: as deleted
            decision = self.policy.disabled(tries=job.attempts, now=now)
            return ended(job, "", decision, Deliverability.deleted.detail, now)
        kind, standing = view.destination.kind, view.deliverability
        if standing is not DELIVERABLE and standing.ends_jobs:
            return ended(job, kind, self.policy.disabled(tries=job.attempts, now=now), standing.detail, now)
        if standing is not DELIVERABLE:
            decision = self.policy.held(state=job.state, tries=job.attempts, created_at=job.created_at, now=now)
            if decision.outcome is None:
                return settled_job(job, decision, None)
            return ended(job, kind, decision, "the subscription was not deliverable within the retry horizon", now)
        try:
            self.sinks.get(kind)
            return prepare(job, claim.events.get((job.tenant_id, job.event_seq)), view, bodies)
        except (SinkUnavailable, NotDeliverable, ValueError) as exc:
            detail = getattr(exc, "detail", None) or str(exc)
            decision = self.policy.dead_letter(tries=job.attempts, now=now, error_class=ErrorClass.internal.value)
            return ended(job, kind, decision, detail, now)

    def _send_all(self, deliveries: list[PreparedDelivery], at: dict[int, float],
                  results: list[Sent | None], *, wait: float) -> tuple[asyncio.Future, asyncio.Future]:
        """Send the batch, at most ``per_destination`` at once to each destination, each send's result
        into ``results`` as it ends (None stays: not tried); returns the sends to the destinations that do
        not hang, and those to the ones that do (N98), as two futures.

        Each destination gets a few sender coroutines that each hold one destination slot (and one
        process slot) while they work through that destination's queue, so a slot is taken once per
        sender rather than once per job. A sender hands its sink ``batch_size`` deliveries per call
        (one webhook request; one SQS or EventBridge batch call; a run of pipelined RabbitMQ publishes).
        Once ``wait`` seconds (``deliver_host_wait_seconds``, or half the lease when shorter; the express loop's
        0) have passed since the batch began, a sender goes on only while its destination delivers (its last
        try was delivered) and for at most half the lease (the batch is recorded before its lease ends); the
        jobs left queued go back untried, as does a try that a sink could not begin by then (N108). A rate-limited subscription's
        deliveries (``at``: their slots' loop times) form a queue of their own, worked by paced senders that
        share the destination's slots.
        """
        queues = destination_queues(deliveries, at)
        began, half = asyncio.get_running_loop().time(), self.settings.deliver_lease_seconds / 2
        # A try that begins after half the lease leaves too little of it for its send and its record: its
        # record would be refused once another worker claimed the job again, and the job sent twice (N105).
        deadline = Deadlines(began + min(wait, half), began + half, time.monotonic() + half)
        senders: tuple[list, list] = ([], [])
        for (key, paced), queue in queues.items():
            group = senders[self.stalls.hanging(key)]
            for _ in range(min(len(queue), self.limits.per_destination_size)):
                group.append(
                    self._paced_sender(self.limits.per_destination[key], queue, deliveries, results, at, deadline)
                    if paced else self._sender(self.limits.per_destination[key], queue, deliveries, results, deadline))
        return asyncio.gather(*senders[0]), asyncio.gather(*senders[1])  # no sender: a future already done

    async def _paced_sender(self, slot: asyncio.Semaphore, queue: deque[int], deliveries: list[PreparedDelivery],
                            results: list[Sent | None], at: dict[int, float], deadline: Deadlines) -> None:
        """Send queued paced deliveries one at a time, each at its slot and never before (N56).

        Slots are waited for holding nothing; a delivery that could only go out more than ``GRACE``
        after its slot (or after ``deadline.latest``) is left untried, its slot lost, so late sends never bunch.
        """
        clock = asyncio.get_running_loop().time
        while queue:
            index = queue.popleft()
            if at[index] > deadline.latest:
                return
            await asyncio.sleep(max(0.0, at[index] - clock()))
            cutoff = at[index] + GRACE
            if not await acquire(slot, cutoff):
                continue
            try:
                if clock() > cutoff or not await acquire(self.limits.total, cutoff):
                    continue
                try:
                    results[index] = (await self._try([deliveries[index]], deadline.start_by))[0]
                finally:
                    self.limits.total.release()
            finally:
                slot.release()

    async def _sender(self, slot: asyncio.Semaphore, queue: deque[int], deliveries: list[PreparedDelivery],
                      results: list[Sent | None], deadline: Deadlines) -> None:
        """Take a destination slot and a process slot, then send queued jobs until the queue or the time is out."""
        waited, latest, start_by = deadline
        if not await acquire(slot, waited):
            return
        try:
            if not await acquire(self.limits.total, waited):
                return
            try:
                clock = asyncio.get_running_loop().time
                delivering = True
                size = self.sinks.get(deliveries[queue[0]].sink_kind).batch_size if queue else 1
                while queue and ((now := clock()) < waited or (delivering and now < latest)):
                    if size == 1:  # one request per delivery (webhooks): no per-job lists
                        index = queue.popleft()
                        item = results[index] = (await self._try([deliveries[index]], start_by))[0]
                        delivering = item is not None and item[0].ok
                        continue
                    indexes = [queue.popleft() for _ in range(min(size, len(queue)))]
                    sent = await self._try([deliveries[index] for index in indexes], start_by)
                    for index, item in zip(indexes, sent, strict=True):
                        results[index] = item
                    delivering = all(item is not None and item[0].ok for item in sent)
            finally:
                self.limits.total.release()
        finally:
            slot.release()

    async def _try(self, batch: list[PreparedDelivery], start_by: float) -> list[Sent | None]:
        """One try of each delivery of ``batch`` (one destination): one ``deliver_many`` call, or
        ``deliver`` for a batch of one; None for a delivery its sink could not begin by ``start_by``
        (a monotonic reading): it goes back untried."""
        sink = self.sinks.get(batch[0].sink_kind)
        started = datetime.now(UTC)
        batch, spans = start_attempts(batch)
        in_flight.count += len(batch)
        key = self._track(batch)
        bound = START_BY.set(start_by)
        try:
            results = [await sink.deliver(batch[0])] if len(batch) == 1 else await sink.deliver_many(batch)
        except BaseException as exc:
            end_attempts(spans, [exc] * len(spans))
            raise
        else:
            end_attempts(spans, results)
        finally:
            START_BY.reset(bound)
            in_flight.count -= len(batch)
            self.stalls.ended(key, len(batch))
        return [None if result is NOT_STARTED else (result, started, started + _millis(result.latency_ms))
                for result in results]

    def _track(self, batch: list[PreparedDelivery]) -> str:
        """Note a try of ``batch`` (one destination) going out, and which subscriptions send there (N98)."""
        key = destination_key(batch[0].sink_kind, batch[0].endpoint)
        for delivery in batch:
            self.stalls.place(delivery.subscription_id, key)
        self.stalls.began(key, len(batch))
        return key

    async def close(self) -> None:
        await self.tails.drain()
        await self.sinks.close()

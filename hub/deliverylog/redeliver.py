"""Resend one job and recover a range: new jobs for the same events, due now, delivered by the engine.

A new job is a plain ``pending`` job of the same subscription and event (N47): the engine reads the
subscription when it claims the job, so it goes to the current destination with the current secrets.
A recovery is accepted in the request's transaction (its row, with the jobs it matched then) and
re-enqueued afterwards in batches of ``HUB_RECOVERY_BATCH_JOBS``, each its own short transaction
with a pause between them (N50), and at the bulk priority (N58), so live jobs keep the delivery workers.
An ordered subscription's recovered jobs of keyed events go through the ordered enqueue, in event order
(hub.dataplane.ordering, N78): each waits behind its key's open head. A resend is an explicit
out-of-order send: its job has no key (N77).
"""

from __future__ import annotations

import logging
import time
import uuid
from datetime import UTC, datetime

from sqlalchemy import bindparam, text
from sqlalchemy.dialects.postgresql import ARRAY, UUID
from sqlalchemy.types import String
from sqlmodel import Session, select

from hub.config import get_settings
from hub.dataplane import ordering
from hub.dataplane.due_channel import NOTIFY_SQL
from hub.dataplane.models import JobPriority, JobState
from hub.db import session_scope
from hub.deliverylog.errors import (
    EVENT_NOT_RETAINED, RECOVERY_NOT_FOUND, SUBSCRIPTION_DISABLED, SUBSCRIPTION_NOT_ACTIVE, refused,
)
from hub.deliverylog.filters import STATES_OF_OUTCOME, id_bound
from hub.deliverylog.models import DeliveryRecovery, RecoveryState
from hub.deliverylog.service import job_row
from hub.errors import NotFound
from hub.ids import new_id, parse_uuid
from hub.subscription.deliverability import deliverability
from hub.subscription.models import Subscription

log = logging.getLogger("hub.deliverylog")
UUIDS = ARRAY(UUID(as_uuid=True))
RECOVERABLE = ("failed", "dead_lettered", "disabled")
ENDED = (JobState.dead_lettered.value, JobState.disabled.value)  # re-delivered by a new job
BULK = JobPriority.bulk.value  # a recovery's jobs wait while live ones are due (N58); a resend is live

# New jobs for the given old ones, whose events are still in the log (retention may have removed some).
NEW_JOBS_SQL = text("""
INSERT INTO delivery_jobs (id, tenant_id, subscription_id, event_seq, state, attempts, next_attempt_at,
                           lease_until, last_error_class, created_at, updated_at, priority)
SELECT n.new_id, j.tenant_id, j.subscription_id, j.event_seq, :pending, 0, now(), NULL, '', now(), now(), :priority
  FROM unnest(:old, :new) AS n(old_id, new_id)
  JOIN delivery_jobs AS j ON j.id = n.old_id
 WHERE EXISTS (SELECT 1 FROM event_log AS e WHERE e.tenant_id = j.tenant_id AND e.seq = j.event_seq)
""").bindparams(bindparam("old", type_=UUIDS), bindparam("new", type_=UUIDS))
# A retrying job is brought forward rather than doubled, unless a worker holds it right now (N49).
# The old jobs of an ordered subscription that carried a key, whose events are still in the log.
KEYED_JOBS_SQL = text("""
SELECT j.id, j.tenant_id, j.subscription_id, j.event_seq, j.ordering_key FROM delivery_jobs AS j
 WHERE j.id = ANY(:ids) AND j.ordering_key IS NOT NULL
   AND EXISTS (SELECT 1 FROM event_log AS e WHERE e.tenant_id = j.tenant_id AND e.seq = j.event_seq)
""").bindparams(bindparam("ids", type_=UUIDS))
BRING_FORWARD_SQL = text("""
UPDATE delivery_jobs SET next_attempt_at = now(), updated_at = now(), priority = :bulk
 WHERE id = ANY(:ids) AND state = :retrying AND next_attempt_at > now()
   AND (lease_until IS NULL OR lease_until <= now())
""").bindparams(bindparam("ids", type_=UUIDS))
RANGE_SQL = """
  FROM delivery_jobs
 WHERE subscription_id = :sub AND tenant_id = :tenant AND id >= :low AND id < :high AND state = ANY(:states)
"""
COUNT_SQL = text(f"SELECT count(*) {RANGE_SQL}").bindparams(bindparam("states", type_=ARRAY(String())))
BATCH_SQL = text(f"SELECT id, state {RANGE_SQL} AND id > :cursor ORDER BY id LIMIT :limit").bindparams(
    bindparam("states", type_=ARRAY(String())))


def check_deliverable(sub: Subscription) -> None:
    """Resend and recover need a subscription the engine delivers to (N48): one whose jobs the engine
    would end is refused as disabled, one whose jobs it would hold as not active."""
    standing = deliverability(deleted=sub.deleted_at is not None, enabled=sub.enabled,
                              verification_state=sub.verification_state)
    if standing.ends_jobs:
        raise refused(SUBSCRIPTION_DISABLED)
    if not standing.ok:
        raise refused(SUBSCRIPTION_NOT_ACTIVE)


def resend(*, session: Session, sub: Subscription, job_id: str) -> uuid.UUID:
    """A new job for the event of ``job_id``, due now; returns its id."""
    old = job_row(session, sub, job_id)
    check_deliverable(sub)
    if old.ce_id is None:
        raise refused(EVENT_NOT_RETAINED)
    new = new_id()
    session.execute(NEW_JOBS_SQL, {"old": [old.id], "new": [new], "pending": JobState.pending.value,
                                   "priority": JobPriority.live.value})
    session.execute(text(NOTIFY_SQL))
    return new


def _states(outcomes: list[str]) -> list[str]:
    return sorted(STATES_OF_OUTCOME[outcome] for outcome in outcomes)


def _range(recovery: DeliveryRecovery) -> dict[str, object]:
    return {"sub": recovery.subscription_id, "tenant": recovery.tenant_id, "low": id_bound(recovery.since),
            "high": id_bound(recovery.until), "states": _states(list(recovery.outcomes or []))}


def accept_recovery(*, session: Session, sub: Subscription, since: datetime, until: datetime | None,
                    outcomes: list[str] | None) -> DeliveryRecovery:
    """The recovery's row, with the jobs it matches now; its batches run after the commit."""
    check_deliverable(sub)
    now = datetime.now(UTC)
    recovery = DeliveryRecovery(
        id=new_id(), tenant_id=sub.tenant_id, subscription_id=sub.id, since=since,
        until=min(until, now) if until is not None else now,
        outcomes=sorted(set(outcomes or RECOVERABLE)), created_at=now, updated_at=now)
    recovery.matched = session.execute(COUNT_SQL, _range(recovery)).scalar_one()
    session.add(recovery)
    session.flush()
    return recovery


def get_recovery(*, session: Session, sub: Subscription, recovery_id: str) -> DeliveryRecovery:
    """One recovery of ``sub``, or the uniform 404."""
    parsed = parse_uuid(recovery_id)
    found = None if parsed is None else session.exec(select(DeliveryRecovery).where(
        DeliveryRecovery.id == parsed, DeliveryRecovery.subscription_id == sub.id,
        DeliveryRecovery.tenant_id == sub.tenant_id)).first()
    if found is None:
        raise NotFound(RECOVERY_NOT_FOUND)
    return found


def _requeue_in_order(session: Session, ended: list[uuid.UUID]) -> tuple[int, list[uuid.UUID]]:
    """An ordered subscription's keyed jobs through the ordered enqueue (event order per key); returns how
    many were enqueued and the ended jobs left for the plain path (no key)."""
    keyed = list(session.execute(KEYED_JOBS_SQL, {"ids": ended}))
    jobs = [ordering.OrderedJob(row.subscription_id, row.ordering_key, row.event_seq, row.tenant_id, new_id())
            for row in keyed]
    ordering.run(ordering.session_cursor(session), ordering.enqueue(jobs, priority=BULK))
    taken = {row.id for row in keyed}
    return len(jobs), [job_id for job_id in ended if job_id not in taken]


def _requeue(session: Session, rows: list[object], *, ordered: bool) -> int:
    ended = [row.id for row in rows if row.state in ENDED]  # type: ignore[attr-defined]
    retrying = [row.id for row in rows if row.state == JobState.retrying]  # type: ignore[attr-defined]
    done = 0
    if ended and ordered:
        done, ended = _requeue_in_order(session, ended)
    if ended:
        done += session.execute(NEW_JOBS_SQL, {"old": ended, "new": [new_id() for _ in ended],
                                                 "pending": JobState.pending.value, "priority": BULK}).rowcount
    if retrying:
        done += session.execute(BRING_FORWARD_SQL, {"ids": retrying, "retrying": JobState.retrying.value,
                                                      "bulk": BULK}).rowcount
    if done:
        session.execute(text(NOTIFY_SQL))
    return done


def run_batch(recovery_id: uuid.UUID, *, batch_jobs: int) -> bool:
    """Re-enqueue the recovery's next batch in one transaction; whether batches remain.

    The row is taken with SKIP LOCKED: a batch another runner holds is left to it.
    """
    with session_scope() as session:
        recovery = session.exec(select(DeliveryRecovery).where(DeliveryRecovery.id == recovery_id)
                                .with_for_update(skip_locked=True)).first()
        if recovery is None or recovery.state != RecoveryState.running:
            return False
        rows = list(session.execute(BATCH_SQL, {**_range(recovery), "limit": batch_jobs,
                                                "cursor": recovery.cursor or uuid.UUID(int=0)}))
        sub = session.get(Subscription, recovery.subscription_id)
        recovery.requeued += _requeue(session, rows, ordered=sub is not None and sub.ordering is not None)
        recovery.updated_at = datetime.now(UTC)
        if rows:
            recovery.cursor = rows[-1].id
        if len(rows) < batch_jobs:
            recovery.state, recovery.completed_at = RecoveryState.completed.value, recovery.updated_at
            recovery.skipped = max(recovery.matched - recovery.requeued, 0)
        session.add(recovery)
        return recovery.state == RecoveryState.running


def run_recovery(recovery_id: uuid.UUID) -> None:
    """Every batch of the recovery, pausing between them (the API runs it after answering 202)."""
    settings = get_settings()
    try:
        while run_batch(recovery_id, batch_jobs=settings.recovery_batch_jobs):
            time.sleep(settings.recovery_pause_seconds)
    except Exception:  # a background task: log, the recovery stays running and can be resumed (N51)
        log.exception("recovery %s stopped", recovery_id)

"""The probe verdict state machine, written once for ping, verify and the credential PUT.

R-X-STATE-*: a successful probe sets ``active`` and makes the jobs held while the destination was
not deliverable due now (D23); a failed probe of an ``active`` destination sets ``degraded``, unless
the access in force was left unchanged (a failed credential rotation: the stored credential stays in
force, R-putSubscriptionCredential-03); other states stay. Only verify touches ``enabled``: its
success also clears the auto-disable verdict, on the subscription and on its health record, in the
same transaction (R-verifySubscription-03), so health and needs-attention stop reporting it and the
next failure starts a new failing streak. Call it on the row locked in the writing transaction.
"""

from __future__ import annotations

import uuid
from datetime import UTC, datetime

from sqlalchemy import text
from sqlmodel import Session

from hub.dataplane.models import DUE_JOB_STATES, state_in
from hub.sinks.base import AttemptResult
from hub.subscription.models import Subscription
from hub.subscription.schemas import VerificationState
from hub.subscription.versions import bump_version

RELEASE_HELD_SQL = text(f"""
UPDATE delivery_jobs SET next_attempt_at = :now
 WHERE subscription_id = :sub AND {state_in(DUE_JOB_STATES)} AND next_attempt_at > :now
   AND lease_until IS NULL
""")
CLEAR_HEALTH_VERDICT_SQL = text("""
UPDATE subscription_health
   SET auto_disabled = false, disabled_reason = '', failing_since = NULL, consecutive_failures = 0,
       updated_at = :now
 WHERE subscription_id = :sub
""")


def apply_verdict(session: Session, sub: Subscription, result: AttemptResult, *, reenable: bool = False,
                  written: bool = False, keeps_access: bool = False) -> None:
    """Move ``sub`` (locked) by the probe's verdict.

    ``reenable``: verify (clears an auto-disable on success; always records the re-check);
    ``written``: the caller changed the row (a stored credential), so it is saved whatever the verdict;
    ``keeps_access``: the probe tried a candidate that was not stored, so a failure leaves the state.
    """
    now = datetime.now(UTC)
    state = sub.verification_state
    if result.ok:
        sub.verification_state = VerificationState.active.value
        if reenable:
            if sub.auto_disabled:
                session.execute(CLEAR_HEALTH_VERDICT_SQL, {"now": now, "sub": sub.id})
            sub.enabled, sub.auto_disabled, sub.disabled_reason = True, False, ""
        release_held_jobs(session=session, subscription_id=sub.id)
    elif state == VerificationState.active and not keeps_access:
        sub.verification_state = VerificationState.degraded.value
    if sub.verification_state != state or reenable or written:
        sub.updated_at = now
        session.add(sub)
        session.flush()
        bump_version(session)


def release_held_jobs(*, session: Session, subscription_id: uuid.UUID) -> None:
    """Make a just-activated subscription's waiting jobs due now (in the activating transaction)."""
    session.execute(RELEASE_HELD_SQL, {"now": datetime.now(UTC), "sub": subscription_id})

"""Ping: probe a webhook subscription, then move its verification state by the verdict.

A success moves ``pending_verification`` or ``degraded`` to ``active`` and makes the jobs held
for it due now; a failure moves ``active`` to ``degraded``. ``enabled`` is never touched. The
probe runs outside any transaction; the state move re-reads the row under a lock.
"""

from __future__ import annotations

import uuid
from datetime import UTC, datetime
from typing import Any

from sqlalchemy import text
from sqlmodel import Session

from hub.delivery.probe import probe_delivery, probe_result, run_probe
from hub.errors import ValidationFailed
from hub.eventlog.models import DUE_JOB_STATES, state_in
from hub.sinks.base import PreparedDelivery
from hub.sinks.vocabulary import SinkKind
from hub.subscription.models import Subscription
from hub.subscription.service import attempt_timeout_seconds, bump_version, get_subscription, signing_secrets
from hub.subscription.values import Caller

RELEASE_HELD_SQL = text(f"""
UPDATE delivery_jobs SET next_attempt_at = :now
 WHERE subscription_id = :sub AND {state_in(DUE_JOB_STATES)} AND next_attempt_at > :now
   AND lease_until IS NULL
""")


class ProbeUnsupported(ValidationFailed):
    """The sink kind has no probe for this operation (ping: webhook only; verify names its kinds)."""

    code = "probe_unsupported_for_sink_kind"
    default_detail = "this sink kind has no ping probe"


def webhook_probe(sub: Subscription) -> PreparedDelivery:
    """The signed probe delivery for a webhook subscription (ping and verify send the same one)."""
    secrets = signing_secrets(subscription_id=sub.id, current=sub.secret_current, previous=sub.secret_previous,
                              overlap_until=sub.secret_overlap_until, now=datetime.now(UTC))
    return probe_delivery(tenant_id=sub.tenant_id, subscription_id=sub.id, endpoint=sub.endpoint, secrets=secrets,
                          timeout_seconds=attempt_timeout_seconds(sub.timeout_ms))


def ping_subscription(*, session: Session, caller: Caller, subscription_id: str) -> dict[str, Any]:
    """Probe the caller's webhook subscription and return the ProbeResult (404 / 422 otherwise)."""
    sub = get_subscription(session=session, caller=caller, subscription_id=subscription_id)
    if sub.sink_kind != SinkKind.webhook.value:
        raise ProbeUnsupported()
    delivery = webhook_probe(sub)
    session.rollback()  # hold no snapshot or lock while the probe is on the network
    result = run_probe(delivery)
    _apply_verdict(session=session, caller=caller, subscription_id=subscription_id, ok=result.ok)
    return probe_result(result)


def _apply_verdict(*, session: Session, caller: Caller, subscription_id: str, ok: bool) -> None:
    sub = get_subscription(session=session, caller=caller, subscription_id=subscription_id, for_update=True)
    now = datetime.now(UTC)
    state = sub.verification_state
    new_state = "active" if ok else ("degraded" if state == "active" else state)
    if new_state != state:
        sub.verification_state, sub.updated_at = new_state, now
        session.add(sub)
        session.flush()
        bump_version(session)
    if ok:
        release_held_jobs(session=session, subscription_id=sub.id)
    session.commit()


def release_held_jobs(*, session: Session, subscription_id: uuid.UUID) -> None:
    """Make a just-activated subscription's waiting jobs due now (call in the activating transaction).

    The one place for it: ping, the credential PUT and verify all activate through here.
    """
    session.execute(RELEASE_HELD_SQL, {"now": datetime.now(UTC), "sub": subscription_id})

"""Domain errors of the delivery log, resend and recover (codes in docs/contract-notes.md N45-N52)."""

from __future__ import annotations

from hub.errors import BadRequest, Conflict, NotFound


class InvalidCursor(BadRequest):
    code, default_detail = "invalid_cursor", "after is not a cursor this delivery log issued"


class JobNotFound(NotFound):
    """The uniform 404: absent, another subscription's, another tenant's, or not an id."""

    default_detail = "delivery job not found"


class RecoveryNotFound(NotFound):
    default_detail = "recovery not found"


class SubscriptionDisabled(Conflict):
    code, default_detail = "subscription_disabled", "the subscription is disabled; enable it (verify) first"


class SubscriptionNotActive(Conflict):
    code = "subscription_not_active"
    default_detail = "the subscription's destination is not verified (verification_state is not active)"


class EventNotRetained(Conflict):
    code, default_detail = "event_not_retained", "the job's event is no longer in the event log (retention)"

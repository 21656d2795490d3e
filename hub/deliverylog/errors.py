"""The delivery log's refusals (codes in docs/contract-notes.md N45-N52).

Each is one of the hub's domain errors (:mod:`hub.errors`) with this feature's code and wording, so
the errors' shape is written once, there; this module holds only what is the delivery log's own.
"""

from __future__ import annotations

from hub.errors import Conflict

CURSOR_NOT_ISSUED = "after is not a cursor this delivery log issued"
# The uniform 404s: absent, another subscription's, another tenant's, or not an id.
JOB_NOT_FOUND = "delivery job not found"
RECOVERY_NOT_FOUND = "recovery not found"

# Why a resend or recover cannot be done now (409): the code, then the detail.
SUBSCRIPTION_DISABLED = ("subscription_disabled", "the subscription is disabled; enable it (verify) first")
SUBSCRIPTION_NOT_ACTIVE = ("subscription_not_active",
                           "the subscription's destination is not verified (verification_state is not active)")
EVENT_NOT_RETAINED = ("event_not_retained", "the job's event is no longer in the event log (retention)")


def refused(reason: tuple[str, str]) -> Conflict:
    """The 409 of a resend or recover refused for REASON (one of the pairs above)."""
    code, detail = reason
    return Conflict(detail, code=code)

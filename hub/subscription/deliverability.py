"""Whether the delivery engine sends to a subscription now and, when it does not, why (N68).

The rule is written here once: a deleted or disabled subscription ends its jobs; one whose
verification state is not ``active`` holds them (they wait, and end only past the retry horizon);
only an enabled, live, ``active`` one is delivered to. The claim (which subscriptions take rate
slots), the engine's triage and the resend/recover checks all ask :func:`deliverability`.
"""

from __future__ import annotations

from enum import Enum


class Deliverability(str, Enum):
    """A subscription's standing for delivery: ``deliverable``, or the reason it is not."""

    deliverable = "deliverable"
    deleted = "deleted"
    disabled = "disabled"
    unverified = "unverified"  # pending_verification: its destination was never proven
    degraded = "degraded"  # its destination failed a check after it was proven

    @property
    def ok(self) -> bool:
        """The engine sends this subscription's jobs."""
        return self is Deliverability.deliverable

    @property
    def ends_jobs(self) -> bool:
        """Its jobs end now (disabled outcome); the other reasons hold them until the state changes."""
        return self in _ENDS_JOBS

    @property
    def detail(self) -> str:
        """The reason as a sentence (an ended job's attempt detail)."""
        return _DETAILS[self]


_ENDS_JOBS = frozenset({Deliverability.deleted, Deliverability.disabled})
_DETAILS = {
    Deliverability.deliverable: "",
    Deliverability.deleted: "the subscription is deleted",
    Deliverability.disabled: "the subscription is disabled",
    Deliverability.unverified: "the subscription's destination is not verified yet",
    Deliverability.degraded: "the subscription's destination failed its last check",
}
# Where a subscription's destination stands (the contract's enum; a comment, not a docstring, so the API
# document's schema of it stays the contract's), and what each state allows.
class VerificationState(str, Enum):
    pending_verification = "pending_verification"
    active = "active"
    degraded = "degraded"

    @property
    def deliverability(self) -> Deliverability:
        """What this state alone allows: ``active`` is delivered to, the others hold the jobs."""
        return _BY_VERIFICATION[self]


_BY_VERIFICATION = {
    VerificationState.active: Deliverability.deliverable,
    VerificationState.pending_verification: Deliverability.unverified,
    VerificationState.degraded: Deliverability.degraded,
}
# Keyed by the values as well: the engine reads the column's plain string.
BY_VERIFICATION: dict[str, Deliverability] = {state.value: rule for state, rule in _BY_VERIFICATION.items()}


def by_verification(state: str) -> Deliverability:
    """What a verification state alone allows; a value that is no VerificationState holds the jobs."""
    return BY_VERIFICATION.get(state, Deliverability.unverified)


def deliverability(*, deleted: bool, enabled: bool, verification_state: str) -> Deliverability:
    """The whole rule: deleted, then disabled, end the jobs; else the verification state decides."""
    if deleted:
        return Deliverability.deleted
    if not enabled:
        return Deliverability.disabled
    return by_verification(verification_state)

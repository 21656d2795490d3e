"""The ``ordering`` delivery option (N77): its shape, checked before the row is read, and the kind's
capability, checked once the row is locked; turning it off releases the keys' waiting jobs.
"""

from __future__ import annotations

import re
from typing import Any

from sqlmodel import Session

from hub.dataplane import ordering as ordered_keys
from hub.providers.registry import provider_for
from hub.subscription.errors import OrderingUnsupported, invalid
from hub.subscription.models import Subscription
from hub.subscription.options_schemas import OrderingRequest

# A CloudEvents attribute name: lower-case ASCII letters and digits, terse (the spec's 20 characters).
ATTRIBUTE_NAME = re.compile(r"[a-z0-9]{1,20}")


def check_ordering(ordering: OrderingRequest | None) -> dict[str, Any] | None:
    """The option to store (None: unordered); 422 ``validation_error`` on a key that is no attribute name."""
    if ordering is None:
        return None
    if not ATTRIBUTE_NAME.fullmatch(ordering.key):
        raise invalid("ordering/key", "ordering.key must be a CloudEvents attribute name: 1 to 20 lower-case "
                                      "letters or digits (default partitionkey)")
    return {"key": ordering.key, "on_dead_letter": ordering.on_dead_letter}


def ordering_for_kind(ordering: dict[str, Any] | None, sink_kind: str) -> dict[str, Any] | None:
    """The option for the row's kind; 422 ``ordering_unsupported`` on a kind that cannot keep order."""
    provider = provider_for(sink_kind)
    if ordering is not None and not provider.keeps_order:
        reason = provider.ordering_refusal or f"{sink_kind} subscriptions cannot be ordered"
        raise OrderingUnsupported(reason, errors=[{"location": "ordering", "message": reason}])
    return ordering


def apply_ordering(session: Session, sub: Subscription, ordering: dict[str, Any] | None) -> None:
    """Store the option on the locked row. Turning it off releases every waiting job of the subscription
    in this transaction (they become due, unordered); turning it on or changing it applies to events
    ingested afterwards, and keys already blocked stay blocked until resumed."""
    if ordering is None:
        release_keys(session, sub)
    sub.ordering = ordering


def release_keys(session: Session, sub: Subscription) -> None:
    """An ordered subscription's keys let go, in the caller's transaction (ordering turned off, or the
    subscription deleted): its waiting jobs become due and its key rows go, so no job waits for a turn
    that never comes (the engine ends a deleted subscription's due jobs ``disabled``)."""
    if sub.ordering is not None:
        ordered_keys.run(ordered_keys.session_cursor(session), ordered_keys.release(sub.id))

"""The two non-secret projections of a subscription row, as JSON-ready dicts.

``Subscription`` (create 201) carries the full ``endpoint``; ``SubscriptionRead`` (list, detail)
carries ``endpoint_display`` and the secret metadata, never the material (R-X-READ-*).
"""

from __future__ import annotations

import re
from datetime import UTC, datetime
from typing import Any

from hub.providers.endpoints import endpoint_display
from hub.subscription.models import Subscription


def timestamp(value: datetime) -> str:
    """RFC 3339 in UTC with a ``Z``."""
    return value.astimezone(UTC).isoformat().replace("+00:00", "Z")


def signature_version(stored: str) -> int:
    """The stored scheme label (``v1``) as the contract's integer."""
    match = re.search(r"\d+", stored or "")
    return int(match.group()) if match else 1


def _optional(sub: Subscription) -> dict[str, Any]:
    """R-createSubscription-26 / R-X-READ-06: each optional field only when set."""
    fields: dict[str, Any] = {}
    if sub.event_types is not None:
        fields["event_types"] = list(sub.event_types)
    if sub.schema_major is not None:
        fields["schema_major"] = sub.schema_major
    if sub.event_majors:
        fields["event_majors"] = dict(sub.event_majors)
    if sub.origin is not None:
        fields["origin"] = sub.origin
    if sub.timeout_ms is not None:
        fields["timeout_ms"] = sub.timeout_ms
    return fields


def _common(sub: Subscription) -> dict[str, Any]:
    return {
        "signature_version": signature_version(sub.signature_version),
        "plan_tier": sub.plan_tier,
        "enabled": sub.enabled,
        "verification_state": sub.verification_state,
        "created_at": timestamp(sub.created_at),
        "updated_at": timestamp(sub.updated_at),
    }


def as_subscription(sub: Subscription) -> dict[str, Any]:
    """The ``Subscription`` schema (create response)."""
    return {"id": str(sub.id), "name": sub.name, "sink_kind": sub.sink_kind, "endpoint": sub.endpoint,
            **_optional(sub), **_common(sub)}


def _secret_metadata(sub: Subscription, now: datetime) -> dict[str, Any]:
    if sub.secret_current is not None:
        configured, rotated_at = True, sub.secret_rotated_at
    elif sub.credential_sealed is not None:
        configured, rotated_at = True, sub.credential_updated_at
    else:
        configured, rotated_at = False, None
    overlap = sub.secret_overlap_until
    open_overlap = overlap is not None and sub.secret_previous is not None and overlap > now
    return {
        "credential_kind": sub.credential_kind,
        "secret_configured": configured,
        "secret_rotated_at": timestamp(rotated_at) if rotated_at else None,
        "secret_overlap_until": timestamp(overlap) if open_overlap and overlap else None,
    }


def as_read(sub: Subscription, now: datetime | None = None) -> dict[str, Any]:
    """The ``SubscriptionRead`` schema (list and detail)."""
    body = {"id": str(sub.id), "name": sub.name, "sink_kind": sub.sink_kind,
            "endpoint_display": endpoint_display(sub.sink_kind, sub.endpoint),
            **_optional(sub), **_common(sub), **_secret_metadata(sub, now or datetime.now(UTC))}
    if sub.delegated_scope:
        body["delegated_scope"] = sub.delegated_scope
    return body

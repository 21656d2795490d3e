"""Request and response bodies of the subscription routes, shaped as the contract's schemas.

Response bodies are built by ``hub.subscription.projection`` (fields are omitted or null exactly as
the contract says); these models describe them in the OpenAPI document. Optional fields are typed
without ``None`` (``omittable()``) because the contract types them without ``null``.
"""

from __future__ import annotations

import uuid
from datetime import datetime
from typing import Literal

from pydantic import BaseModel, StrictInt, StrictStr

from hub.schema_base import ClosedModel, omittable
from hub.sinks.vocabulary import SinkKind
from hub.subscription.deliverability import VerificationState  # the contract enum; its rule lives with it


class CreateSubscriptionRequest(BaseModel):
    """The create body. Unknown fields are ignored (``tenant_id``) or refused by the hub
    (``sink_config`` / ``credential`` → ``inline_sink_config_forbidden``; the delivery options
    ``filter``, ``headers``, ``rate_limit_per_second`` → ``validation_error``, N67)."""

    name: StrictStr
    sink_kind: SinkKind
    endpoint: StrictStr = omittable()
    event_types: list[StrictStr] = omittable()
    origin: StrictStr = omittable()
    timeout_ms: StrictInt = omittable()
    schema_major: StrictInt = omittable()
    event_majors: dict[StrictStr, StrictInt] = omittable()
    plan_tier: StrictStr = omittable()


class PatchSubscriptionRequest(ClosedModel):
    """The narrow change body: ``schema_major`` (required, nullable) and optional ``timeout_ms``; any
    other field is 422 ``validation_error`` (the delivery options have their own resource, N67)."""

    schema_major: StrictInt | None
    timeout_ms: StrictInt = omittable()


class Subscription(ClosedModel):
    """The create response's projection: the full ``endpoint``, no secret."""

    id: uuid.UUID
    name: str
    sink_kind: SinkKind
    endpoint: str
    event_types: list[str] = omittable()
    schema_major: int = omittable()
    event_majors: dict[str, int] = omittable()
    origin: str = omittable()
    timeout_ms: int = omittable()
    signature_version: int
    plan_tier: str
    enabled: bool
    verification_state: VerificationState
    created_at: datetime
    updated_at: datetime


class SubscriptionRead(ClosedModel):
    """The list and detail projection: ``endpoint_display`` instead of the destination."""

    id: uuid.UUID
    name: str
    sink_kind: SinkKind
    endpoint_display: str
    event_types: list[str] = omittable()
    origin: str = omittable()
    timeout_ms: int = omittable()
    schema_major: int = omittable()
    event_majors: dict[str, int] = omittable()
    signature_version: int
    plan_tier: str
    enabled: bool
    verification_state: VerificationState
    credential_kind: Literal["signing_secret", "static_credential", "delegated_grant", "none"]
    secret_configured: bool
    secret_rotated_at: datetime | None
    secret_overlap_until: datetime | None
    delegated_scope: str = omittable()
    created_at: datetime
    updated_at: datetime


class CreateSubscriptionResponse(ClosedModel):
    subscription: Subscription
    signingSecret: str


class ListSubscriptionsResponse(ClosedModel):
    subscriptions: list[SubscriptionRead]
    next_cursor: str


class SubscriptionResponse(ClosedModel):
    subscription: SubscriptionRead


class RotateSecretResponse(ClosedModel):
    signingSecret: str
    overlapUntil: datetime


class EndpointResponse(ClosedModel):
    endpoint: str

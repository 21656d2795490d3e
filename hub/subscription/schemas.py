"""Request and response bodies of the subscription routes, shaped as the contract's schemas.

Response bodies are built by ``hub.subscription.projection`` (fields are omitted or null exactly as
the contract says); these models describe them in the OpenAPI document. Optional fields are typed
without ``None`` (``omittable()``) because the contract types them without ``null``.
"""

from __future__ import annotations

import uuid
from datetime import datetime
from enum import Enum
from typing import Any, Literal

from pydantic import BaseModel, Field, StrictBool, StrictInt, StrictStr

from hub.schema_base import ClosedModel, omittable
from hub.sinks.vocabulary import SinkKind


FILTER_DOC = ("Extension (docs/contract-notes.md N53): a payload filter over the event's `data` (paths "
              "`data.a.b`) and attributes (`subject`, …), with equality, `$eq`, `$in`, `$exists`, `$gt`, "
              "`$gte`, `$lt`, `$lte`, `$prefix`, `$and`, `$or` and `$not`; null or absent: every event.")


HEADERS_DOC = ("Extension (docs/contract-notes.md N54), webhook only: up to 20 static request headers; one marked "
               "`secret` is sealed at rest and read back without its value. None may set `content-type`, "
               "`user-agent` or a `webhook-*` header.")


RATE_LIMIT_DOC = ("Extension (docs/contract-notes.md N56), push kinds only: at most this many deliveries per "
                  "second to the destination, across every delivery worker (1 to 10000); jobs above the rate "
                  "wait without spending retries. Null or absent: no limit.")


class StaticHeader(ClosedModel):
    """A static request header as a create or PATCH body gives it."""

    name: StrictStr
    value: StrictStr
    secret: StrictBool = False


class StaticHeaderRead(ClosedModel):
    """A static header as reads show it: a secret one without its value."""

    name: str
    value: str = omittable()
    secret: bool


class VerificationState(str, Enum):
    pending_verification = "pending_verification"
    active = "active"
    degraded = "degraded"


class CreateSubscriptionRequest(BaseModel):
    """The create body. Unknown fields are ignored (``tenant_id``) or refused by the hub
    (``sink_config`` / ``credential`` → ``inline_sink_config_forbidden``)."""

    name: StrictStr
    sink_kind: SinkKind
    endpoint: StrictStr = omittable()
    event_types: list[StrictStr] = omittable()
    origin: StrictStr = omittable()
    timeout_ms: StrictInt = omittable()
    schema_major: StrictInt = omittable()
    event_majors: dict[StrictStr, StrictInt] = omittable()
    plan_tier: StrictStr = omittable()
    filter: dict[str, Any] | None = Field(default=None, description=FILTER_DOC)
    headers: list[StaticHeader] | None = Field(default=None, description=HEADERS_DOC)
    rate_limit_per_second: StrictInt | None = Field(default=None, description=RATE_LIMIT_DOC)


class PatchSubscriptionRequest(ClosedModel):
    """The narrow change body: ``schema_major`` (required, nullable) and optional ``timeout_ms``;
    the extensions ``filter`` (N53), ``headers`` (N54) and ``rate_limit_per_second`` (N56) replace
    theirs (null removes them)."""

    schema_major: StrictInt | None
    timeout_ms: StrictInt = omittable()
    filter: dict[str, Any] | None = Field(default=None, description=FILTER_DOC)
    headers: list[StaticHeader] | None = Field(default=None, description=HEADERS_DOC)
    rate_limit_per_second: StrictInt | None = Field(default=None, description=RATE_LIMIT_DOC)


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
    filter: dict[str, Any] | None = Field(description=FILTER_DOC)
    headers: list[StaticHeaderRead] = Field(description=HEADERS_DOC)
    rate_limit_per_second: int | None = Field(description=RATE_LIMIT_DOC)
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
    filter: dict[str, Any] | None = Field(description=FILTER_DOC)
    headers: list[StaticHeaderRead] = Field(description=HEADERS_DOC)
    rate_limit_per_second: int | None = Field(description=RATE_LIMIT_DOC)
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

"""Plain values passed between the subscription router, checks and service."""

from __future__ import annotations

import uuid
from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True)
class Caller:
    """Whose subscriptions an operation may see: the tenant, narrowed to a delegated party."""

    tenant_id: str
    delegated_scope: str | None = None


@dataclass(frozen=True)
class ListFilters:
    limit: int
    after: uuid.UUID | None = None
    sink_kind: str | None = None
    name: str | None = None
    enabled: bool | None = None
    verification_state: str | None = None


@dataclass(frozen=True)
class NewSubscription:
    """A create body that passed every hub check, normalized for storage."""

    name: str
    sink_kind: str
    endpoint: str | None
    event_types: list[str] | None
    origin: str | None
    timeout_ms: int | None
    schema_major: int | None
    event_majors: dict[str, int] | None
    plan_tier: str
    delegated_scope: str | None
    payload_filter: dict[str, Any] | None = None
    custom_headers: list[dict[str, Any]] | None = None  # checked, not yet sealed (needs the row's id)
    rate_limit_per_second: int | None = None


@dataclass(frozen=True)
class SubscriptionChange:
    """The PATCH extensions' fields, checked: each applies only when the body carried it."""

    filter_given: bool = False
    payload_filter: dict[str, Any] | None = None
    headers_given: bool = False
    headers: list[dict[str, Any]] | None = None  # as sent: checked against the row's kind by the service
    rate_limit_given: bool = False
    rate_limit_per_second: int | None = None  # in range; checked against the row's kind by the service

"""Plain values passed between the subscription router, checks and service."""

from __future__ import annotations

import uuid
from dataclasses import dataclass


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

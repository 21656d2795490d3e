"""The served shape of ``SubscriptionHealth`` and the projection that builds it."""

from __future__ import annotations

import uuid
from datetime import datetime
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict

from hub.health.service import Health
from hub.schema_base import Int64, omittable
from hub.subscription.models import Subscription
from hub.subscription.projection import timestamp
from hub.subscription.schemas import VerificationState


class SubscriptionHealth(BaseModel):
    """Documents the body (R-getSubscriptionHealth-04); the route serves ``as_health``'s dict."""

    model_config = ConfigDict(extra="forbid", title="SubscriptionHealth")

    subscription_id: uuid.UUID
    enabled: bool
    verification_state: VerificationState
    status: Literal["Healthy", "Degraded", "Down"]
    snapshot_at: datetime
    window_start: datetime
    delivery_outcomes: dict[str, int]
    recent_outcomes: dict[str, int]
    success_rate: float | None
    dead_lettered: int
    poison_events: int
    dropped_tenant: bool
    consumer_lag_ms: Int64
    auto_disabled: bool | None
    disabled_reason: str = omittable()
    last_success_at: datetime = omittable()
    last_failure_at: datetime = omittable()


def as_health(sub: Subscription, health: Health) -> dict[str, Any]:
    """The body: required fields always, ``disabled_reason`` and the last times only when known."""
    body: dict[str, Any] = {
        "subscription_id": str(sub.id),
        "enabled": sub.enabled,
        "verification_state": sub.verification_state,
        "status": health.status(enabled=sub.enabled),
        "snapshot_at": timestamp(health.snapshot_at),
        "window_start": timestamp(health.window_start),
        "delivery_outcomes": dict(health.outcomes),
        "recent_outcomes": dict(health.recent),
        "success_rate": health.success_rate,
        "dead_lettered": health.outcomes.get("dead_lettered", 0),
        "poison_events": health.poison_events,
        "dropped_tenant": health.poison_events > 0,
        "consumer_lag_ms": 0,
        "auto_disabled": health.auto_disabled,
    }
    if health.disabled_reason:
        body["disabled_reason"] = health.disabled_reason
    if health.last_success_at is not None:
        body["last_success_at"] = timestamp(health.last_success_at)
    if health.last_failure_at is not None:
        body["last_failure_at"] = timestamp(health.last_failure_at)
    return body

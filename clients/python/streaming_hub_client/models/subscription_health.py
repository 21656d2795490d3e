from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, BinaryIO, Generator, TextIO, TypeVar, cast
from uuid import UUID

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..models.subscription_health_status import SubscriptionHealthStatus
from ..models.verification_state import VerificationState
from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.subscription_health_delivery_outcomes import (
        SubscriptionHealthDeliveryOutcomes,
    )
    from ..models.subscription_health_recent_outcomes import (
        SubscriptionHealthRecentOutcomes,
    )


T = TypeVar("T", bound="SubscriptionHealth")


@_attrs_define
class SubscriptionHealth:
    """Documents the body (R-getSubscriptionHealth-04); the route serves ``as_health``'s dict.

    Attributes:
        auto_disabled (bool | None):
        consumer_lag_ms (int):
        dead_lettered (int):
        delivery_outcomes (SubscriptionHealthDeliveryOutcomes):
        dropped_tenant (bool):
        enabled (bool):
        poison_events (int):
        recent_outcomes (SubscriptionHealthRecentOutcomes):
        snapshot_at (datetime.datetime):
        status (SubscriptionHealthStatus):
        subscription_id (UUID):
        success_rate (float | None):
        verification_state (VerificationState):
        window_start (datetime.datetime):
        disabled_reason (str | Unset):
        last_failure_at (datetime.datetime | Unset):
        last_success_at (datetime.datetime | Unset):
    """

    auto_disabled: bool | None
    consumer_lag_ms: int
    dead_lettered: int
    delivery_outcomes: SubscriptionHealthDeliveryOutcomes
    dropped_tenant: bool
    enabled: bool
    poison_events: int
    recent_outcomes: SubscriptionHealthRecentOutcomes
    snapshot_at: datetime.datetime
    status: SubscriptionHealthStatus
    subscription_id: UUID
    success_rate: float | None
    verification_state: VerificationState
    window_start: datetime.datetime
    disabled_reason: str | Unset = UNSET
    last_failure_at: datetime.datetime | Unset = UNSET
    last_success_at: datetime.datetime | Unset = UNSET

    def to_dict(self) -> dict[str, Any]:
        from ..models.subscription_health_delivery_outcomes import (
            SubscriptionHealthDeliveryOutcomes,  # noqa: PLC0415
        )
        from ..models.subscription_health_recent_outcomes import (
            SubscriptionHealthRecentOutcomes,  # noqa: PLC0415
        )

        auto_disabled: bool | None
        auto_disabled = self.auto_disabled

        consumer_lag_ms = self.consumer_lag_ms

        dead_lettered = self.dead_lettered

        delivery_outcomes = self.delivery_outcomes.to_dict()

        dropped_tenant = self.dropped_tenant

        enabled = self.enabled

        poison_events = self.poison_events

        recent_outcomes = self.recent_outcomes.to_dict()

        snapshot_at = self.snapshot_at.isoformat()

        status = self.status.value

        subscription_id = str(self.subscription_id)

        success_rate: float | None
        success_rate = self.success_rate

        verification_state = self.verification_state.value

        window_start = self.window_start.isoformat()

        disabled_reason = self.disabled_reason

        last_failure_at: str | Unset = UNSET
        if not isinstance(self.last_failure_at, Unset):
            last_failure_at = self.last_failure_at.isoformat()

        last_success_at: str | Unset = UNSET
        if not isinstance(self.last_success_at, Unset):
            last_success_at = self.last_success_at.isoformat()

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "auto_disabled": auto_disabled,
                "consumer_lag_ms": consumer_lag_ms,
                "dead_lettered": dead_lettered,
                "delivery_outcomes": delivery_outcomes,
                "dropped_tenant": dropped_tenant,
                "enabled": enabled,
                "poison_events": poison_events,
                "recent_outcomes": recent_outcomes,
                "snapshot_at": snapshot_at,
                "status": status,
                "subscription_id": subscription_id,
                "success_rate": success_rate,
                "verification_state": verification_state,
                "window_start": window_start,
            }
        )
        if disabled_reason is not UNSET:
            field_dict["disabled_reason"] = disabled_reason
        if last_failure_at is not UNSET:
            field_dict["last_failure_at"] = last_failure_at
        if last_success_at is not UNSET:
            field_dict["last_success_at"] = last_success_at

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.subscription_health_delivery_outcomes import (
            SubscriptionHealthDeliveryOutcomes,  # noqa: PLC0415
        )
        from ..models.subscription_health_recent_outcomes import (
            SubscriptionHealthRecentOutcomes,  # noqa: PLC0415
        )

        d = dict(src_dict)

        def _parse_auto_disabled(data: object) -> bool | None:
            if data is None:
                return data
            return cast(bool | None, data)

        auto_disabled = _parse_auto_disabled(d.pop("auto_disabled"))

        consumer_lag_ms = d.pop("consumer_lag_ms")

        dead_lettered = d.pop("dead_lettered")

        delivery_outcomes = SubscriptionHealthDeliveryOutcomes.from_dict(
            d.pop("delivery_outcomes")
        )

        dropped_tenant = d.pop("dropped_tenant")

        enabled = d.pop("enabled")

        poison_events = d.pop("poison_events")

        recent_outcomes = SubscriptionHealthRecentOutcomes.from_dict(
            d.pop("recent_outcomes")
        )

        snapshot_at = datetime.datetime.fromisoformat(d.pop("snapshot_at"))

        status = SubscriptionHealthStatus(d.pop("status"))

        subscription_id = UUID(d.pop("subscription_id"))

        def _parse_success_rate(data: object) -> float | None:
            if data is None:
                return data
            return cast(float | None, data)

        success_rate = _parse_success_rate(d.pop("success_rate"))

        verification_state = VerificationState(d.pop("verification_state"))

        window_start = datetime.datetime.fromisoformat(d.pop("window_start"))

        disabled_reason = d.pop("disabled_reason", UNSET)

        _last_failure_at = d.pop("last_failure_at", UNSET)
        last_failure_at: datetime.datetime | Unset
        if isinstance(_last_failure_at, Unset):
            last_failure_at = UNSET
        else:
            last_failure_at = datetime.datetime.fromisoformat(_last_failure_at)

        _last_success_at = d.pop("last_success_at", UNSET)
        last_success_at: datetime.datetime | Unset
        if isinstance(_last_success_at, Unset):
            last_success_at = UNSET
        else:
            last_success_at = datetime.datetime.fromisoformat(_last_success_at)

        subscription_health = cls(
            auto_disabled=auto_disabled,
            consumer_lag_ms=consumer_lag_ms,
            dead_lettered=dead_lettered,
            delivery_outcomes=delivery_outcomes,
            dropped_tenant=dropped_tenant,
            enabled=enabled,
            poison_events=poison_events,
            recent_outcomes=recent_outcomes,
            snapshot_at=snapshot_at,
            status=status,
            subscription_id=subscription_id,
            success_rate=success_rate,
            verification_state=verification_state,
            window_start=window_start,
            disabled_reason=disabled_reason,
            last_failure_at=last_failure_at,
            last_success_at=last_success_at,
        )

        return subscription_health

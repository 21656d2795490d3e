from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, BinaryIO, Generator, TextIO, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.dashboard_delivery_attempt_counts import (
        DashboardDeliveryAttemptCounts,
    )


T = TypeVar("T", bound="DashboardPushPeriod")


@_attrs_define
class DashboardPushPeriod:
    """
    Attributes:
        delivery_attempts (DashboardDeliveryAttemptCounts):
        delivery_jobs_created (int):
    """

    delivery_attempts: DashboardDeliveryAttemptCounts
    delivery_jobs_created: int

    def to_dict(self) -> dict[str, Any]:
        from ..models.dashboard_delivery_attempt_counts import (
            DashboardDeliveryAttemptCounts,  # noqa: PLC0415
        )

        delivery_attempts = self.delivery_attempts.to_dict()

        delivery_jobs_created = self.delivery_jobs_created

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "delivery_attempts": delivery_attempts,
                "delivery_jobs_created": delivery_jobs_created,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.dashboard_delivery_attempt_counts import (
            DashboardDeliveryAttemptCounts,  # noqa: PLC0415
        )

        d = dict(src_dict)
        delivery_attempts = DashboardDeliveryAttemptCounts.from_dict(
            d.pop("delivery_attempts")
        )

        delivery_jobs_created = d.pop("delivery_jobs_created")

        dashboard_push_period = cls(
            delivery_attempts=delivery_attempts,
            delivery_jobs_created=delivery_jobs_created,
        )

        return dashboard_push_period

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, BinaryIO, Generator, TextIO, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

T = TypeVar("T", bound="DashboardDeliveryAttemptCounts")


@_attrs_define
class DashboardDeliveryAttemptCounts:
    """
    Attributes:
        available (int):
        dead_lettered (int):
        delivered (int):
        disabled (int):
        failed (int):
        poison (int):
    """

    available: int
    dead_lettered: int
    delivered: int
    disabled: int
    failed: int
    poison: int

    def to_dict(self) -> dict[str, Any]:
        available = self.available

        dead_lettered = self.dead_lettered

        delivered = self.delivered

        disabled = self.disabled

        failed = self.failed

        poison = self.poison

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "available": available,
                "dead_lettered": dead_lettered,
                "delivered": delivered,
                "disabled": disabled,
                "failed": failed,
                "poison": poison,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        available = d.pop("available")

        dead_lettered = d.pop("dead_lettered")

        delivered = d.pop("delivered")

        disabled = d.pop("disabled")

        failed = d.pop("failed")

        poison = d.pop("poison")

        dashboard_delivery_attempt_counts = cls(
            available=available,
            dead_lettered=dead_lettered,
            delivered=delivered,
            disabled=disabled,
            failed=failed,
            poison=poison,
        )

        return dashboard_delivery_attempt_counts

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, BinaryIO, Generator, TextIO, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

T = TypeVar("T", bound="DashboardVerificationStateCounts")


@_attrs_define
class DashboardVerificationStateCounts:
    """
    Attributes:
        active (int):
        degraded (int):
        disabled (int):
        pending_verification (int):
    """

    active: int
    degraded: int
    disabled: int
    pending_verification: int

    def to_dict(self) -> dict[str, Any]:
        active = self.active

        degraded = self.degraded

        disabled = self.disabled

        pending_verification = self.pending_verification

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "active": active,
                "degraded": degraded,
                "disabled": disabled,
                "pending_verification": pending_verification,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        active = d.pop("active")

        degraded = d.pop("degraded")

        disabled = d.pop("disabled")

        pending_verification = d.pop("pending_verification")

        dashboard_verification_state_counts = cls(
            active=active,
            degraded=degraded,
            disabled=disabled,
            pending_verification=pending_verification,
        )

        return dashboard_verification_state_counts

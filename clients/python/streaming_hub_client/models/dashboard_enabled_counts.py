from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, BinaryIO, Generator, TextIO, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

T = TypeVar("T", bound="DashboardEnabledCounts")


@_attrs_define
class DashboardEnabledCounts:
    """
    Attributes:
        disabled (int):
        enabled (int):
    """

    disabled: int
    enabled: int

    def to_dict(self) -> dict[str, Any]:
        disabled = self.disabled

        enabled = self.enabled

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "disabled": disabled,
                "enabled": enabled,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        disabled = d.pop("disabled")

        enabled = d.pop("enabled")

        dashboard_enabled_counts = cls(
            disabled=disabled,
            enabled=enabled,
        )

        return dashboard_enabled_counts

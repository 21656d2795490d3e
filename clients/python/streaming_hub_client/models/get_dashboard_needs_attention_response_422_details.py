from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, BinaryIO, Generator, TextIO, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

T = TypeVar("T", bound="GetDashboardNeedsAttentionResponse422Details")


@_attrs_define
class GetDashboardNeedsAttentionResponse422Details:
    """
    Attributes:
        coverage_start (datetime.datetime):
        snapshot_at (datetime.datetime):
    """

    coverage_start: datetime.datetime
    snapshot_at: datetime.datetime
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        coverage_start = self.coverage_start.isoformat()

        snapshot_at = self.snapshot_at.isoformat()

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "coverage_start": coverage_start,
                "snapshot_at": snapshot_at,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        coverage_start = datetime.datetime.fromisoformat(d.pop("coverage_start"))

        snapshot_at = datetime.datetime.fromisoformat(d.pop("snapshot_at"))

        get_dashboard_needs_attention_response_422_details = cls(
            coverage_start=coverage_start,
            snapshot_at=snapshot_at,
        )

        get_dashboard_needs_attention_response_422_details.additional_properties = d
        return get_dashboard_needs_attention_response_422_details

    @property
    def additional_keys(self) -> list[str]:
        return list(self.additional_properties.keys())

    def __getitem__(self, key: str) -> Any:
        return self.additional_properties[key]

    def __setitem__(self, key: str, value: Any) -> None:
        self.additional_properties[key] = value

    def __delitem__(self, key: str) -> None:
        del self.additional_properties[key]

    def __contains__(self, key: str) -> bool:
        return key in self.additional_properties

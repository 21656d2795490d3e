from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, BinaryIO, Generator, TextIO, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..models.readiness_detail_state import ReadinessDetailState
from ..types import UNSET, Unset

T = TypeVar("T", bound="ReadinessDetail")


@_attrs_define
class ReadinessDetail:
    """
    Attributes:
        detail (str):
        name (str):
        state (ReadinessDetailState):
    """

    detail: str
    name: str
    state: ReadinessDetailState
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        detail = self.detail

        name = self.name

        state = self.state.value

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "detail": detail,
                "name": name,
                "state": state,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        detail = d.pop("detail")

        name = d.pop("name")

        state = ReadinessDetailState(d.pop("state"))

        readiness_detail = cls(
            detail=detail,
            name=name,
            state=state,
        )

        readiness_detail.additional_properties = d
        return readiness_detail

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

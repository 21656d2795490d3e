from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, BinaryIO, Generator, TextIO, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..models.readiness_response_state import ReadinessResponseState
from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.readiness_detail import ReadinessDetail


T = TypeVar("T", bound="ReadinessResponse")


@_attrs_define
class ReadinessResponse:
    """
    Attributes:
        probes (list[ReadinessDetail]):
        state (ReadinessResponseState):
    """

    probes: list[ReadinessDetail]
    state: ReadinessResponseState
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        from ..models.readiness_detail import ReadinessDetail  # noqa: PLC0415

        probes = []
        for probes_item_data in self.probes:
            probes_item = probes_item_data.to_dict()
            probes.append(probes_item)

        state = self.state.value

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "probes": probes,
                "state": state,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.readiness_detail import ReadinessDetail  # noqa: PLC0415

        d = dict(src_dict)
        probes = []
        _probes = d.pop("probes")
        for probes_item_data in _probes:
            probes_item = ReadinessDetail.from_dict(probes_item_data)

            probes.append(probes_item)

        state = ReadinessResponseState(d.pop("state"))

        readiness_response = cls(
            probes=probes,
            state=state,
        )

        readiness_response.additional_properties = d
        return readiness_response

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

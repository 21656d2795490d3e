from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, BinaryIO, Generator, TextIO, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.resource_filter import ResourceFilter


T = TypeVar("T", bound="FilterGroup")


@_attrs_define
class FilterGroup:
    """One filter group as JSON (the domain's is :class:`hub.consumer.filters.FilterGroup`).

    Attributes:
        event_type (str | Unset): The event type; empty selects every type. Default: ''.
        filters (list[ResourceFilter] | Unset): Resource filters (any matches); none selects every event of the type.
    """

    event_type: str | Unset = ""
    filters: list[ResourceFilter] | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        from ..models.resource_filter import ResourceFilter  # noqa: PLC0415

        event_type = self.event_type

        filters: list[dict[str, Any]] | Unset = UNSET
        if not isinstance(self.filters, Unset):
            filters = []
            for filters_item_data in self.filters:
                filters_item = filters_item_data.to_dict()
                filters.append(filters_item)

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({})
        if event_type is not UNSET:
            field_dict["event_type"] = event_type
        if filters is not UNSET:
            field_dict["filters"] = filters

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.resource_filter import ResourceFilter  # noqa: PLC0415

        d = dict(src_dict)
        event_type = d.pop("event_type", UNSET)

        _filters = d.pop("filters", UNSET)
        filters: list[ResourceFilter] | Unset = UNSET
        if _filters is not UNSET:
            filters = []
            for filters_item_data in _filters:
                filters_item = ResourceFilter.from_dict(filters_item_data)

                filters.append(filters_item)

        filter_group = cls(
            event_type=event_type,
            filters=filters,
        )

        filter_group.additional_properties = d
        return filter_group

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

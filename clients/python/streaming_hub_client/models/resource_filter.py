from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, BinaryIO, Generator, TextIO, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..models.filter_type import FilterType
from ..types import UNSET, Unset

T = TypeVar("T", bound="ResourceFilter")


@_attrs_define
class ResourceFilter:
    """
    Attributes:
        filter_type (FilterType | Unset):
        resource_id (str | Unset): The resource id, or the prefix, e.g. `/uploads/`. Default: ''.
    """

    filter_type: FilterType | Unset = UNSET
    resource_id: str | Unset = ""
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        filter_type: str | Unset = UNSET
        if not isinstance(self.filter_type, Unset):
            filter_type = self.filter_type.value

        resource_id = self.resource_id

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({})
        if filter_type is not UNSET:
            field_dict["filter_type"] = filter_type
        if resource_id is not UNSET:
            field_dict["resource_id"] = resource_id

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        _filter_type = d.pop("filter_type", UNSET)
        filter_type: FilterType | Unset
        if isinstance(_filter_type, Unset):
            filter_type = UNSET
        else:
            filter_type = FilterType(_filter_type)

        resource_id = d.pop("resource_id", UNSET)

        resource_filter = cls(
            filter_type=filter_type,
            resource_id=resource_id,
        )

        resource_filter.additional_properties = d
        return resource_filter

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

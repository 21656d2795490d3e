from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, BinaryIO, Generator, TextIO, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.filter_group import FilterGroup


T = TypeVar("T", bound="CreateDurableQueueRequest")


@_attrs_define
class CreateDurableQueueRequest:
    """
    Attributes:
        filter_groups (list[FilterGroup] | Unset): Filters to apply; empty adds every event.
        queue_id (str | Unset): Optional; empty means the server generates one. Must match `^[A-Za-z0-9._-]{1,200}$`;
            queue ids share one deployment-wide namespace. Default: ''.
    """

    filter_groups: list[FilterGroup] | Unset = UNSET
    queue_id: str | Unset = ""
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        from ..models.filter_group import FilterGroup  # noqa: PLC0415

        filter_groups: list[dict[str, Any]] | Unset = UNSET
        if not isinstance(self.filter_groups, Unset):
            filter_groups = []
            for filter_groups_item_data in self.filter_groups:
                filter_groups_item = filter_groups_item_data.to_dict()
                filter_groups.append(filter_groups_item)

        queue_id = self.queue_id

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({})
        if filter_groups is not UNSET:
            field_dict["filter_groups"] = filter_groups
        if queue_id is not UNSET:
            field_dict["queue_id"] = queue_id

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.filter_group import FilterGroup  # noqa: PLC0415

        d = dict(src_dict)
        _filter_groups = d.pop("filter_groups", UNSET)
        filter_groups: list[FilterGroup] | Unset = UNSET
        if _filter_groups is not UNSET:
            filter_groups = []
            for filter_groups_item_data in _filter_groups:
                filter_groups_item = FilterGroup.from_dict(filter_groups_item_data)

                filter_groups.append(filter_groups_item)

        queue_id = d.pop("queue_id", UNSET)

        create_durable_queue_request = cls(
            filter_groups=filter_groups,
            queue_id=queue_id,
        )

        create_durable_queue_request.additional_properties = d
        return create_durable_queue_request

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

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, BinaryIO, Generator, TextIO, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.filter_group import FilterGroup


T = TypeVar("T", bound="UpdateDurableQueueRequest")


@_attrs_define
class UpdateDurableQueueRequest:
    """
    Attributes:
        queue_id (str): Must match `^[A-Za-z0-9._-]{1,200}$`; queue ids share one deployment-wide namespace.
        current_filter_groups (list[FilterGroup] | Unset): The queue's filters now (informative).
        new_filter_groups (list[FilterGroup] | Unset): The queue's filters next.
    """

    queue_id: str
    current_filter_groups: list[FilterGroup] | Unset = UNSET
    new_filter_groups: list[FilterGroup] | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        from ..models.filter_group import FilterGroup  # noqa: PLC0415

        queue_id = self.queue_id

        current_filter_groups: list[dict[str, Any]] | Unset = UNSET
        if not isinstance(self.current_filter_groups, Unset):
            current_filter_groups = []
            for current_filter_groups_item_data in self.current_filter_groups:
                current_filter_groups_item = current_filter_groups_item_data.to_dict()
                current_filter_groups.append(current_filter_groups_item)

        new_filter_groups: list[dict[str, Any]] | Unset = UNSET
        if not isinstance(self.new_filter_groups, Unset):
            new_filter_groups = []
            for new_filter_groups_item_data in self.new_filter_groups:
                new_filter_groups_item = new_filter_groups_item_data.to_dict()
                new_filter_groups.append(new_filter_groups_item)

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "queue_id": queue_id,
            }
        )
        if current_filter_groups is not UNSET:
            field_dict["current_filter_groups"] = current_filter_groups
        if new_filter_groups is not UNSET:
            field_dict["new_filter_groups"] = new_filter_groups

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.filter_group import FilterGroup  # noqa: PLC0415

        d = dict(src_dict)
        queue_id = d.pop("queue_id")

        _current_filter_groups = d.pop("current_filter_groups", UNSET)
        current_filter_groups: list[FilterGroup] | Unset = UNSET
        if _current_filter_groups is not UNSET:
            current_filter_groups = []
            for current_filter_groups_item_data in _current_filter_groups:
                current_filter_groups_item = FilterGroup.from_dict(
                    current_filter_groups_item_data
                )

                current_filter_groups.append(current_filter_groups_item)

        _new_filter_groups = d.pop("new_filter_groups", UNSET)
        new_filter_groups: list[FilterGroup] | Unset = UNSET
        if _new_filter_groups is not UNSET:
            new_filter_groups = []
            for new_filter_groups_item_data in _new_filter_groups:
                new_filter_groups_item = FilterGroup.from_dict(
                    new_filter_groups_item_data
                )

                new_filter_groups.append(new_filter_groups_item)

        update_durable_queue_request = cls(
            queue_id=queue_id,
            current_filter_groups=current_filter_groups,
            new_filter_groups=new_filter_groups,
        )

        update_durable_queue_request.additional_properties = d
        return update_durable_queue_request

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

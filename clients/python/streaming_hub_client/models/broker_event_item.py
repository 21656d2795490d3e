from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, BinaryIO, Generator, TextIO, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

T = TypeVar("T", bound="BrokerEventItem")


@_attrs_define
class BrokerEventItem:
    """One event, as publish answers it and history and live frames show it.

    Attributes:
        id (str): The event's uuid (its CloudEvent id).
        topic (str): The topic it was published on, e.g. `orders:1042`.
        ts (int): Publish time, milliseconds since the epoch.
        type_ (str):
        data (Any | Unset): Any JSON value.
    """

    id: str
    topic: str
    ts: int
    type_: str
    data: Any | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        id = self.id

        topic = self.topic

        ts = self.ts

        type_ = self.type_

        data = self.data

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "id": id,
                "topic": topic,
                "ts": ts,
                "type": type_,
            }
        )
        if data is not UNSET:
            field_dict["data"] = data

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        id = d.pop("id")

        topic = d.pop("topic")

        ts = d.pop("ts")

        type_ = d.pop("type")

        data = d.pop("data", UNSET)

        broker_event_item = cls(
            id=id,
            topic=topic,
            ts=ts,
            type_=type_,
            data=data,
        )

        broker_event_item.additional_properties = d
        return broker_event_item

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

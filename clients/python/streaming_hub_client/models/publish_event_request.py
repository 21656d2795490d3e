from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, BinaryIO, Generator, TextIO, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.publisher_event import PublisherEvent


T = TypeVar("T", bound="PublishEventRequest")


@_attrs_define
class PublishEventRequest:
    """
    Attributes:
        event (PublisherEvent): One event as the publisher sends it (and as its result echoes it).
    """

    event: PublisherEvent
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        from ..models.publisher_event import PublisherEvent  # noqa: PLC0415

        event = self.event.to_dict()

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "event": event,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.publisher_event import PublisherEvent  # noqa: PLC0415

        d = dict(src_dict)
        event = PublisherEvent.from_dict(d.pop("event"))

        publish_event_request = cls(
            event=event,
        )

        publish_event_request.additional_properties = d
        return publish_event_request

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

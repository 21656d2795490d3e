from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, BinaryIO, Generator, TextIO, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.event_resource import EventResource
    from ..models.publisher_event_message import PublisherEventMessage


T = TypeVar("T", bound="PublisherEvent")


@_attrs_define
class PublisherEvent:
    """One event as the publisher sends it (and as its result echoes it).

    Attributes:
        event_type (str): The event's type, e.g. `myapp.user.created`.
        message (PublisherEventMessage): The event's payload: a JSON object.
        occurred_at (datetime.datetime): When the event happened (RFC 3339, with an offset).
        resource (EventResource | None | Unset): Optional.
    """

    event_type: str
    message: PublisherEventMessage
    occurred_at: datetime.datetime
    resource: EventResource | None | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        from ..models.event_resource import EventResource  # noqa: PLC0415
        from ..models.publisher_event_message import PublisherEventMessage  # noqa: PLC0415

        event_type = self.event_type

        message = self.message.to_dict()

        occurred_at = self.occurred_at.isoformat()

        resource: dict[str, Any] | None | Unset
        if isinstance(self.resource, Unset):
            resource = UNSET
        elif isinstance(self.resource, EventResource):
            resource = self.resource.to_dict()
        else:
            resource = self.resource

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "event_type": event_type,
                "message": message,
                "occurred_at": occurred_at,
            }
        )
        if resource is not UNSET:
            field_dict["resource"] = resource

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.event_resource import EventResource  # noqa: PLC0415
        from ..models.publisher_event_message import PublisherEventMessage  # noqa: PLC0415

        d = dict(src_dict)
        event_type = d.pop("event_type")

        message = PublisherEventMessage.from_dict(d.pop("message"))

        occurred_at = datetime.datetime.fromisoformat(d.pop("occurred_at"))

        def _parse_resource(data: object) -> EventResource | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                resource_type_0 = EventResource.from_dict(data)

                return resource_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(EventResource | None | Unset, data)

        resource = _parse_resource(d.pop("resource", UNSET))

        publisher_event = cls(
            event_type=event_type,
            message=message,
            occurred_at=occurred_at,
            resource=resource,
        )

        publisher_event.additional_properties = d
        return publisher_event

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

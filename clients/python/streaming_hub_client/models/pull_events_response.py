from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, BinaryIO, Generator, TextIO, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.pull_event import PullEvent


T = TypeVar("T", bound="PullEventsResponse")


@_attrs_define
class PullEventsResponse:
    """
    Attributes:
        events (list[PullEvent]): A page of events in ascending `seq` order.
        next_cursor (int | None): The page's last `seq` when it filled to `limit`, else null.
    """

    events: list[PullEvent]
    next_cursor: int | None

    def to_dict(self) -> dict[str, Any]:
        from ..models.pull_event import PullEvent  # noqa: PLC0415

        events = []
        for events_item_data in self.events:
            events_item = events_item_data.to_dict()
            events.append(events_item)

        next_cursor: int | None
        next_cursor = self.next_cursor

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "events": events,
                "next_cursor": next_cursor,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.pull_event import PullEvent  # noqa: PLC0415

        d = dict(src_dict)
        events = []
        _events = d.pop("events")
        for events_item_data in _events:
            events_item = PullEvent.from_dict(events_item_data)

            events.append(events_item)

        def _parse_next_cursor(data: object) -> int | None:
            if data is None:
                return data
            return cast(int | None, data)

        next_cursor = _parse_next_cursor(d.pop("next_cursor"))

        pull_events_response = cls(
            events=events,
            next_cursor=next_cursor,
        )

        return pull_events_response

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, BinaryIO, Generator, TextIO, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..models.dead_lettered_event_reason import DeadLetteredEventReason
from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.dead_lettered_event_event import DeadLetteredEventEvent


T = TypeVar("T", bound="DeadLetteredEvent")


@_attrs_define
class DeadLetteredEvent:
    """
    Attributes:
        dead_lettered_at (None | str): When it was dead-lettered (RFC 3339), if the broker said.
        delivery_count (int):
        event (DeadLetteredEventEvent): The consumer Event: event_type, principal_identity, occurred_at, published_at,
            message.
        id (str): The message's key: name it in an action (stable across requests).
        origin_queue (str): The durable queue it was dead-lettered from.
        reason (DeadLetteredEventReason):
        resource_id (str):
    """

    dead_lettered_at: None | str
    delivery_count: int
    event: DeadLetteredEventEvent
    id: str
    origin_queue: str
    reason: DeadLetteredEventReason
    resource_id: str

    def to_dict(self) -> dict[str, Any]:
        from ..models.dead_lettered_event_event import DeadLetteredEventEvent  # noqa: PLC0415

        dead_lettered_at: None | str
        dead_lettered_at = self.dead_lettered_at

        delivery_count = self.delivery_count

        event = self.event.to_dict()

        id = self.id

        origin_queue = self.origin_queue

        reason = self.reason.value

        resource_id = self.resource_id

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "dead_lettered_at": dead_lettered_at,
                "delivery_count": delivery_count,
                "event": event,
                "id": id,
                "origin_queue": origin_queue,
                "reason": reason,
                "resource_id": resource_id,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.dead_lettered_event_event import DeadLetteredEventEvent  # noqa: PLC0415

        d = dict(src_dict)

        def _parse_dead_lettered_at(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        dead_lettered_at = _parse_dead_lettered_at(d.pop("dead_lettered_at"))

        delivery_count = d.pop("delivery_count")

        event = DeadLetteredEventEvent.from_dict(d.pop("event"))

        id = d.pop("id")

        origin_queue = d.pop("origin_queue")

        reason = DeadLetteredEventReason(d.pop("reason"))

        resource_id = d.pop("resource_id")

        dead_lettered_event = cls(
            dead_lettered_at=dead_lettered_at,
            delivery_count=delivery_count,
            event=event,
            id=id,
            origin_queue=origin_queue,
            reason=reason,
            resource_id=resource_id,
        )

        return dead_lettered_event

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, BinaryIO, Generator, TextIO, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.filter_group import FilterGroup


T = TypeVar("T", bound="DurableQueue")


@_attrs_define
class DurableQueue:
    """
    Attributes:
        consumers (int | None): Consumers attached now; null when the broker no longer has it.
        created_at (str): When the queue was created (RFC 3339).
        depth (int | None): Messages ready in the queue; null when the broker no longer has it.
        filter_groups (list[FilterGroup]): The filter groups the queue is bound by.
        idle_expires_at (None | str): When the queue is deleted if no consumer attaches before (RFC 3339); null while
            one is attached.
        last_consumer_at (str): When a consumer was last attached (RFC 3339).
        queue_id (str): The queue's id, as given at create (or generated).
        unacknowledged (int): Deliveries held by open streams and not yet acknowledged.
    """

    consumers: int | None
    created_at: str
    depth: int | None
    filter_groups: list[FilterGroup]
    idle_expires_at: None | str
    last_consumer_at: str
    queue_id: str
    unacknowledged: int

    def to_dict(self) -> dict[str, Any]:
        from ..models.filter_group import FilterGroup  # noqa: PLC0415

        consumers: int | None
        consumers = self.consumers

        created_at = self.created_at

        depth: int | None
        depth = self.depth

        filter_groups = []
        for filter_groups_item_data in self.filter_groups:
            filter_groups_item = filter_groups_item_data.to_dict()
            filter_groups.append(filter_groups_item)

        idle_expires_at: None | str
        idle_expires_at = self.idle_expires_at

        last_consumer_at = self.last_consumer_at

        queue_id = self.queue_id

        unacknowledged = self.unacknowledged

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "consumers": consumers,
                "created_at": created_at,
                "depth": depth,
                "filter_groups": filter_groups,
                "idle_expires_at": idle_expires_at,
                "last_consumer_at": last_consumer_at,
                "queue_id": queue_id,
                "unacknowledged": unacknowledged,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.filter_group import FilterGroup  # noqa: PLC0415

        d = dict(src_dict)

        def _parse_consumers(data: object) -> int | None:
            if data is None:
                return data
            return cast(int | None, data)

        consumers = _parse_consumers(d.pop("consumers"))

        created_at = d.pop("created_at")

        def _parse_depth(data: object) -> int | None:
            if data is None:
                return data
            return cast(int | None, data)

        depth = _parse_depth(d.pop("depth"))

        filter_groups = []
        _filter_groups = d.pop("filter_groups")
        for filter_groups_item_data in _filter_groups:
            filter_groups_item = FilterGroup.from_dict(filter_groups_item_data)

            filter_groups.append(filter_groups_item)

        def _parse_idle_expires_at(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        idle_expires_at = _parse_idle_expires_at(d.pop("idle_expires_at"))

        last_consumer_at = d.pop("last_consumer_at")

        queue_id = d.pop("queue_id")

        unacknowledged = d.pop("unacknowledged")

        durable_queue = cls(
            consumers=consumers,
            created_at=created_at,
            depth=depth,
            filter_groups=filter_groups,
            idle_expires_at=idle_expires_at,
            last_consumer_at=last_consumer_at,
            queue_id=queue_id,
            unacknowledged=unacknowledged,
        )

        return durable_queue

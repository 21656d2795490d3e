from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, BinaryIO, Generator, TextIO, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.durable_queue import DurableQueue


T = TypeVar("T", bound="DurableQueueList")


@_attrs_define
class DurableQueueList:
    """
    Attributes:
        next_cursor (None | str): Pass as `after` for the next page; null on the last page.
        queues (list[DurableQueue]): The tenant's durable queues, by queue id.
    """

    next_cursor: None | str
    queues: list[DurableQueue]

    def to_dict(self) -> dict[str, Any]:
        from ..models.durable_queue import DurableQueue  # noqa: PLC0415

        next_cursor: None | str
        next_cursor = self.next_cursor

        queues = []
        for queues_item_data in self.queues:
            queues_item = queues_item_data.to_dict()
            queues.append(queues_item)

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "next_cursor": next_cursor,
                "queues": queues,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.durable_queue import DurableQueue  # noqa: PLC0415

        d = dict(src_dict)

        def _parse_next_cursor(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        next_cursor = _parse_next_cursor(d.pop("next_cursor"))

        queues = []
        _queues = d.pop("queues")
        for queues_item_data in _queues:
            queues_item = DurableQueue.from_dict(queues_item_data)

            queues.append(queues_item)

        durable_queue_list = cls(
            next_cursor=next_cursor,
            queues=queues,
        )

        return durable_queue_list

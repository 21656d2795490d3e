from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, BinaryIO, Generator, TextIO, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.durable_queue import DurableQueue


T = TypeVar("T", bound="DurableQueueResponse")


@_attrs_define
class DurableQueueResponse:
    """
    Attributes:
        queue (DurableQueue):
    """

    queue: DurableQueue

    def to_dict(self) -> dict[str, Any]:
        from ..models.durable_queue import DurableQueue  # noqa: PLC0415

        queue = self.queue.to_dict()

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "queue": queue,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.durable_queue import DurableQueue  # noqa: PLC0415

        d = dict(src_dict)
        queue = DurableQueue.from_dict(d.pop("queue"))

        durable_queue_response = cls(
            queue=queue,
        )

        return durable_queue_response

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, BinaryIO, Generator, TextIO, TypeVar, cast
from uuid import UUID

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.blocked_head_error import BlockedHeadError
    from ..models.blocked_head_event import BlockedHeadEvent


T = TypeVar("T", bound="BlockedHead")


@_attrs_define
class BlockedHead:
    """
    Attributes:
        attempt_count (int):
        job_id (UUID): The dead-lettered job that blocks the key (see the delivery log).
        event (BlockedHeadEvent | Unset):
        last_error (BlockedHeadError | Unset):
    """

    attempt_count: int
    job_id: UUID
    event: BlockedHeadEvent | Unset = UNSET
    last_error: BlockedHeadError | Unset = UNSET

    def to_dict(self) -> dict[str, Any]:
        from ..models.blocked_head_error import BlockedHeadError  # noqa: PLC0415
        from ..models.blocked_head_event import BlockedHeadEvent  # noqa: PLC0415

        attempt_count = self.attempt_count

        job_id = str(self.job_id)

        event: dict[str, Any] | Unset = UNSET
        if not isinstance(self.event, Unset):
            event = self.event.to_dict()

        last_error: dict[str, Any] | Unset = UNSET
        if not isinstance(self.last_error, Unset):
            last_error = self.last_error.to_dict()

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "attempt_count": attempt_count,
                "job_id": job_id,
            }
        )
        if event is not UNSET:
            field_dict["event"] = event
        if last_error is not UNSET:
            field_dict["last_error"] = last_error

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.blocked_head_error import BlockedHeadError  # noqa: PLC0415
        from ..models.blocked_head_event import BlockedHeadEvent  # noqa: PLC0415

        d = dict(src_dict)
        attempt_count = d.pop("attempt_count")

        job_id = UUID(d.pop("job_id"))

        _event = d.pop("event", UNSET)
        event: BlockedHeadEvent | Unset
        if isinstance(_event, Unset):
            event = UNSET
        else:
            event = BlockedHeadEvent.from_dict(_event)

        _last_error = d.pop("last_error", UNSET)
        last_error: BlockedHeadError | Unset
        if isinstance(_last_error, Unset):
            last_error = UNSET
        else:
            last_error = BlockedHeadError.from_dict(_last_error)

        blocked_head = cls(
            attempt_count=attempt_count,
            job_id=job_id,
            event=event,
            last_error=last_error,
        )

        return blocked_head

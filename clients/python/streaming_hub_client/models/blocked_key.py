from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, BinaryIO, Generator, TextIO, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.blocked_head import BlockedHead


T = TypeVar("T", bound="BlockedKey")


@_attrs_define
class BlockedKey:
    """
    Attributes:
        blocked_at (datetime.datetime): When the head dead-lettered and parked the key.
        head (BlockedHead):
        key (str): The key's value (the event's ordering attribute, `partitionkey` by default).
        waiting (int): How many later events of the key wait, stored, behind the head.
    """

    blocked_at: datetime.datetime
    head: BlockedHead
    key: str
    waiting: int

    def to_dict(self) -> dict[str, Any]:
        from ..models.blocked_head import BlockedHead  # noqa: PLC0415

        blocked_at = self.blocked_at.isoformat()

        head = self.head.to_dict()

        key = self.key

        waiting = self.waiting

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "blocked_at": blocked_at,
                "head": head,
                "key": key,
                "waiting": waiting,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.blocked_head import BlockedHead  # noqa: PLC0415

        d = dict(src_dict)
        blocked_at = datetime.datetime.fromisoformat(d.pop("blocked_at"))

        head = BlockedHead.from_dict(d.pop("head"))

        key = d.pop("key")

        waiting = d.pop("waiting")

        blocked_key = cls(
            blocked_at=blocked_at,
            head=head,
            key=key,
            waiting=waiting,
        )

        return blocked_key

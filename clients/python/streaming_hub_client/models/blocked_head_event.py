from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, BinaryIO, Generator, TextIO, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

T = TypeVar("T", bound="BlockedHeadEvent")


@_attrs_define
class BlockedHeadEvent:
    """
    Attributes:
        id (str): The CloudEvent id.
        seq (int): The event's sequence in the tenant's event log.
        type_ (str):
    """

    id: str
    seq: int
    type_: str

    def to_dict(self) -> dict[str, Any]:
        id = self.id

        seq = self.seq

        type_ = self.type_

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "id": id,
                "seq": seq,
                "type": type_,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        id = d.pop("id")

        seq = d.pop("seq")

        type_ = d.pop("type")

        blocked_head_event = cls(
            id=id,
            seq=seq,
            type_=type_,
        )

        return blocked_head_event

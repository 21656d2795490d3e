from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, BinaryIO, Generator, TextIO, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

T = TypeVar("T", bound="DeliveryEvent")


@_attrs_define
class DeliveryEvent:
    """
    Attributes:
        id (str): The CloudEvent id.
        received_at (datetime.datetime):
        seq (int):
        source (str):
        type_ (str):
        time (datetime.datetime | Unset):
    """

    id: str
    received_at: datetime.datetime
    seq: int
    source: str
    type_: str
    time: datetime.datetime | Unset = UNSET

    def to_dict(self) -> dict[str, Any]:
        id = self.id

        received_at = self.received_at.isoformat()

        seq = self.seq

        source = self.source

        type_ = self.type_

        time: str | Unset = UNSET
        if not isinstance(self.time, Unset):
            time = self.time.isoformat()

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "id": id,
                "received_at": received_at,
                "seq": seq,
                "source": source,
                "type": type_,
            }
        )
        if time is not UNSET:
            field_dict["time"] = time

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        id = d.pop("id")

        received_at = datetime.datetime.fromisoformat(d.pop("received_at"))

        seq = d.pop("seq")

        source = d.pop("source")

        type_ = d.pop("type")

        _time = d.pop("time", UNSET)
        time: datetime.datetime | Unset
        if isinstance(_time, Unset):
            time = UNSET
        else:
            time = datetime.datetime.fromisoformat(_time)

        delivery_event = cls(
            id=id,
            received_at=received_at,
            seq=seq,
            source=source,
            type_=type_,
            time=time,
        )

        return delivery_event

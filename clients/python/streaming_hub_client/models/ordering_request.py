from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, BinaryIO, Generator, TextIO, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..models.ordering_request_on_dead_letter import OrderingRequestOnDeadLetter
from ..types import UNSET, Unset

T = TypeVar("T", bound="OrderingRequest")


@_attrs_define
class OrderingRequest:
    """The ordering option as a PUT body gives it; a field left out takes its default.

    Attributes:
        key (str | Unset): The CloudEvents attribute whose value is an event's key (a CloudEvents attribute name: 1 to
            20 lower-case letters or digits). Default `partitionkey`, the Kafka record key, so one key's events share a
            partition. An event without the attribute is delivered unordered. Default: 'partitionkey'.
        on_dead_letter (OrderingRequestOnDeadLetter | Unset): What an event that dead-letters does to its key: `block`
            (default) parks the key, its later events wait until an operator resumes it (`POST …/blocked-keys/resume`, retry
            or skip); `skip` leaves the event dead-lettered and sends the key's next one. Default:
            OrderingRequestOnDeadLetter.BLOCK.
    """

    key: str | Unset = "partitionkey"
    on_dead_letter: OrderingRequestOnDeadLetter | Unset = (
        OrderingRequestOnDeadLetter.BLOCK
    )

    def to_dict(self) -> dict[str, Any]:
        key = self.key

        on_dead_letter: str | Unset = UNSET
        if not isinstance(self.on_dead_letter, Unset):
            on_dead_letter = self.on_dead_letter.value

        field_dict: dict[str, Any] = {}

        field_dict.update({})
        if key is not UNSET:
            field_dict["key"] = key
        if on_dead_letter is not UNSET:
            field_dict["on_dead_letter"] = on_dead_letter

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        key = d.pop("key", UNSET)

        _on_dead_letter = d.pop("on_dead_letter", UNSET)
        on_dead_letter: OrderingRequestOnDeadLetter | Unset
        if isinstance(_on_dead_letter, Unset):
            on_dead_letter = UNSET
        else:
            on_dead_letter = OrderingRequestOnDeadLetter(_on_dead_letter)

        ordering_request = cls(
            key=key,
            on_dead_letter=on_dead_letter,
        )

        return ordering_request

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, BinaryIO, Generator, TextIO, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..models.ordering_on_dead_letter import OrderingOnDeadLetter
from ..types import UNSET, Unset

T = TypeVar("T", bound="Ordering")


@_attrs_define
class Ordering:
    """The ordering option in force; both fields always present.

    Attributes:
        key (str): The CloudEvents attribute whose value is an event's key (a CloudEvents attribute name: 1 to 20 lower-
            case letters or digits). Default `partitionkey`, the Kafka record key, so one key's events share a partition. An
            event without the attribute is delivered unordered.
        on_dead_letter (OrderingOnDeadLetter): What an event that dead-letters does to its key: `block` (default) parks
            the key, its later events wait until an operator resumes it (`POST …/blocked-keys/resume`, retry or skip);
            `skip` leaves the event dead-lettered and sends the key's next one.
    """

    key: str
    on_dead_letter: OrderingOnDeadLetter

    def to_dict(self) -> dict[str, Any]:
        key = self.key

        on_dead_letter = self.on_dead_letter.value

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "key": key,
                "on_dead_letter": on_dead_letter,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        key = d.pop("key")

        on_dead_letter = OrderingOnDeadLetter(d.pop("on_dead_letter"))

        ordering = cls(
            key=key,
            on_dead_letter=on_dead_letter,
        )

        return ordering

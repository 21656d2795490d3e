from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, BinaryIO, Generator, TextIO, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.dead_lettered_event import DeadLetteredEvent


T = TypeVar("T", bound="DeadLetterList")


@_attrs_define
class DeadLetterList:
    """
    Attributes:
        dead_letters (list[DeadLetteredEvent]): The head of the dead-letter queue, oldest first.
    """

    dead_letters: list[DeadLetteredEvent]

    def to_dict(self) -> dict[str, Any]:
        from ..models.dead_lettered_event import DeadLetteredEvent  # noqa: PLC0415

        dead_letters = []
        for dead_letters_item_data in self.dead_letters:
            dead_letters_item = dead_letters_item_data.to_dict()
            dead_letters.append(dead_letters_item)

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "dead_letters": dead_letters,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.dead_lettered_event import DeadLetteredEvent  # noqa: PLC0415

        d = dict(src_dict)
        dead_letters = []
        _dead_letters = d.pop("dead_letters")
        for dead_letters_item_data in _dead_letters:
            dead_letters_item = DeadLetteredEvent.from_dict(dead_letters_item_data)

            dead_letters.append(dead_letters_item)

        dead_letter_list = cls(
            dead_letters=dead_letters,
        )

        return dead_letter_list

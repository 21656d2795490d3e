from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, BinaryIO, Generator, TextIO, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..models.triage_action_action import TriageActionAction
from ..types import UNSET, Unset

T = TypeVar("T", bound="TriageAction")


@_attrs_define
class TriageAction:
    """
    Attributes:
        action (TriageActionAction):
        id (str): A dead-lettered event's `id`.
    """

    action: TriageActionAction
    id: str

    def to_dict(self) -> dict[str, Any]:
        action = self.action.value

        id = self.id

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "action": action,
                "id": id,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        action = TriageActionAction(d.pop("action"))

        id = d.pop("id")

        triage_action = cls(
            action=action,
            id=id,
        )

        return triage_action

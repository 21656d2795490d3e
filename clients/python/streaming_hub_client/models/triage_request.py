from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, BinaryIO, Generator, TextIO, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.triage_action import TriageAction


T = TypeVar("T", bound="TriageRequest")


@_attrs_define
class TriageRequest:
    """
    Attributes:
        actions (list[TriageAction]):
    """

    actions: list[TriageAction]

    def to_dict(self) -> dict[str, Any]:
        from ..models.triage_action import TriageAction  # noqa: PLC0415

        actions = []
        for actions_item_data in self.actions:
            actions_item = actions_item_data.to_dict()
            actions.append(actions_item)

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "actions": actions,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.triage_action import TriageAction  # noqa: PLC0415

        d = dict(src_dict)
        actions = []
        _actions = d.pop("actions")
        for actions_item_data in _actions:
            actions_item = TriageAction.from_dict(actions_item_data)

            actions.append(actions_item)

        triage_request = cls(
            actions=actions,
        )

        return triage_request

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, BinaryIO, Generator, TextIO, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..models.triage_outcome_action import TriageOutcomeAction
from ..models.triage_outcome_outcome import TriageOutcomeOutcome
from ..types import UNSET, Unset

T = TypeVar("T", bound="TriageOutcome")


@_attrs_define
class TriageOutcome:
    """
    Attributes:
        action (TriageOutcomeAction):
        detail (str): Why, for anything but REPLAYED, DISCARDED and LEFT; may be empty.
        id (str):
        outcome (TriageOutcomeOutcome):
    """

    action: TriageOutcomeAction
    detail: str
    id: str
    outcome: TriageOutcomeOutcome

    def to_dict(self) -> dict[str, Any]:
        action = self.action.value

        detail = self.detail

        id = self.id

        outcome = self.outcome.value

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "action": action,
                "detail": detail,
                "id": id,
                "outcome": outcome,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        action = TriageOutcomeAction(d.pop("action"))

        detail = d.pop("detail")

        id = d.pop("id")

        outcome = TriageOutcomeOutcome(d.pop("outcome"))

        triage_outcome = cls(
            action=action,
            detail=detail,
            id=id,
            outcome=outcome,
        )

        return triage_outcome

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, BinaryIO, Generator, TextIO, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.triage_outcome import TriageOutcome


T = TypeVar("T", bound="TriageResponse")


@_attrs_define
class TriageResponse:
    """
    Attributes:
        outcomes (list[TriageOutcome]): One per requested action, in the request's order.
    """

    outcomes: list[TriageOutcome]

    def to_dict(self) -> dict[str, Any]:
        from ..models.triage_outcome import TriageOutcome  # noqa: PLC0415

        outcomes = []
        for outcomes_item_data in self.outcomes:
            outcomes_item = outcomes_item_data.to_dict()
            outcomes.append(outcomes_item)

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "outcomes": outcomes,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.triage_outcome import TriageOutcome  # noqa: PLC0415

        d = dict(src_dict)
        outcomes = []
        _outcomes = d.pop("outcomes")
        for outcomes_item_data in _outcomes:
            outcomes_item = TriageOutcome.from_dict(outcomes_item_data)

            outcomes.append(outcomes_item)

        triage_response = cls(
            outcomes=outcomes,
        )

        return triage_response

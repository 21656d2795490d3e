from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, BinaryIO, Generator, TextIO, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.dlq_observation import DLQObservation


T = TypeVar("T", bound="DLQResponse")


@_attrs_define
class DLQResponse:
    """
    Attributes:
        next_cursor (str):
        observations (list[DLQObservation]):
    """

    next_cursor: str
    observations: list[DLQObservation]

    def to_dict(self) -> dict[str, Any]:
        from ..models.dlq_observation import DLQObservation  # noqa: PLC0415

        next_cursor = self.next_cursor

        observations = []
        for observations_item_data in self.observations:
            observations_item = observations_item_data.to_dict()
            observations.append(observations_item)

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "nextCursor": next_cursor,
                "observations": observations,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.dlq_observation import DLQObservation  # noqa: PLC0415

        d = dict(src_dict)
        next_cursor = d.pop("nextCursor")

        observations = []
        _observations = d.pop("observations")
        for observations_item_data in _observations:
            observations_item = DLQObservation.from_dict(observations_item_data)

            observations.append(observations_item)

        dlq_response = cls(
            next_cursor=next_cursor,
            observations=observations,
        )

        return dlq_response

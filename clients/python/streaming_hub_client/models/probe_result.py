from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, BinaryIO, Generator, TextIO, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..models.probe_result_outcome import ProbeResultOutcome
from ..types import UNSET, Unset

T = TypeVar("T", bound="ProbeResult")


@_attrs_define
class ProbeResult:
    """The classified result of a synchronous probe; ``detail`` only on failure.

    Attributes:
        error_class (str):
        outcome (ProbeResultOutcome):
        status_code (int):
        detail (str | Unset):
    """

    error_class: str
    outcome: ProbeResultOutcome
    status_code: int
    detail: str | Unset = UNSET

    def to_dict(self) -> dict[str, Any]:
        error_class = self.error_class

        outcome = self.outcome.value

        status_code = self.status_code

        detail = self.detail

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "errorClass": error_class,
                "outcome": outcome,
                "statusCode": status_code,
            }
        )
        if detail is not UNSET:
            field_dict["detail"] = detail

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        error_class = d.pop("errorClass")

        outcome = ProbeResultOutcome(d.pop("outcome"))

        status_code = d.pop("statusCode")

        detail = d.pop("detail", UNSET)

        probe_result = cls(
            error_class=error_class,
            outcome=outcome,
            status_code=status_code,
            detail=detail,
        )

        return probe_result

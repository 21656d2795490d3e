from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, BinaryIO, Generator, TextIO, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

T = TypeVar("T", bound="DeliveryAttemptRecord")


@_attrs_define
class DeliveryAttemptRecord:
    """
    Attributes:
        attempt_no (int):
        attempted_at (datetime.datetime):
        detail (str):
        error_class (str):
        latency_ms (int):
        outcome (str):
        status_code (int):
    """

    attempt_no: int
    attempted_at: datetime.datetime
    detail: str
    error_class: str
    latency_ms: int
    outcome: str
    status_code: int

    def to_dict(self) -> dict[str, Any]:
        attempt_no = self.attempt_no

        attempted_at = self.attempted_at.isoformat()

        detail = self.detail

        error_class = self.error_class

        latency_ms = self.latency_ms

        outcome = self.outcome

        status_code = self.status_code

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "attempt_no": attempt_no,
                "attempted_at": attempted_at,
                "detail": detail,
                "error_class": error_class,
                "latency_ms": latency_ms,
                "outcome": outcome,
                "status_code": status_code,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        attempt_no = d.pop("attempt_no")

        attempted_at = datetime.datetime.fromisoformat(d.pop("attempted_at"))

        detail = d.pop("detail")

        error_class = d.pop("error_class")

        latency_ms = d.pop("latency_ms")

        outcome = d.pop("outcome")

        status_code = d.pop("status_code")

        delivery_attempt_record = cls(
            attempt_no=attempt_no,
            attempted_at=attempted_at,
            detail=detail,
            error_class=error_class,
            latency_ms=latency_ms,
            outcome=outcome,
            status_code=status_code,
        )

        return delivery_attempt_record

from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, BinaryIO, Generator, TextIO, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

T = TypeVar("T", bound="BlockedHeadError")


@_attrs_define
class BlockedHeadError:
    """
    Attributes:
        attempted_at (datetime.datetime):
        detail (str):
        error_class (str):
        outcome (str):
        status_code (int):
    """

    attempted_at: datetime.datetime
    detail: str
    error_class: str
    outcome: str
    status_code: int

    def to_dict(self) -> dict[str, Any]:
        attempted_at = self.attempted_at.isoformat()

        detail = self.detail

        error_class = self.error_class

        outcome = self.outcome

        status_code = self.status_code

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "attempted_at": attempted_at,
                "detail": detail,
                "error_class": error_class,
                "outcome": outcome,
                "status_code": status_code,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        attempted_at = datetime.datetime.fromisoformat(d.pop("attempted_at"))

        detail = d.pop("detail")

        error_class = d.pop("error_class")

        outcome = d.pop("outcome")

        status_code = d.pop("status_code")

        blocked_head_error = cls(
            attempted_at=attempted_at,
            detail=detail,
            error_class=error_class,
            outcome=outcome,
            status_code=status_code,
        )

        return blocked_head_error

from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, BinaryIO, Generator, TextIO, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

T = TypeVar("T", bound="RotateSecretResponse")


@_attrs_define
class RotateSecretResponse:
    """
    Attributes:
        overlap_until (datetime.datetime):
        signing_secret (str):
    """

    overlap_until: datetime.datetime
    signing_secret: str

    def to_dict(self) -> dict[str, Any]:
        overlap_until = self.overlap_until.isoformat()

        signing_secret = self.signing_secret

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "overlapUntil": overlap_until,
                "signingSecret": signing_secret,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        overlap_until = datetime.datetime.fromisoformat(d.pop("overlapUntil"))

        signing_secret = d.pop("signingSecret")

        rotate_secret_response = cls(
            overlap_until=overlap_until,
            signing_secret=signing_secret,
        )

        return rotate_secret_response

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, BinaryIO, Generator, TextIO, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.resumed_key import ResumedKey


T = TypeVar("T", bound="ResumeBlockedKeyResponse")


@_attrs_define
class ResumeBlockedKeyResponse:
    """
    Attributes:
        resumed (ResumedKey):
    """

    resumed: ResumedKey

    def to_dict(self) -> dict[str, Any]:
        from ..models.resumed_key import ResumedKey  # noqa: PLC0415

        resumed = self.resumed.to_dict()

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "resumed": resumed,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.resumed_key import ResumedKey  # noqa: PLC0415

        d = dict(src_dict)
        resumed = ResumedKey.from_dict(d.pop("resumed"))

        resume_blocked_key_response = cls(
            resumed=resumed,
        )

        return resume_blocked_key_response

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, BinaryIO, Generator, TextIO, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.recovery import Recovery


T = TypeVar("T", bound="RecoveryResponse")


@_attrs_define
class RecoveryResponse:
    """
    Attributes:
        recovery (Recovery):
    """

    recovery: Recovery

    def to_dict(self) -> dict[str, Any]:
        from ..models.recovery import Recovery  # noqa: PLC0415

        recovery = self.recovery.to_dict()

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "recovery": recovery,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.recovery import Recovery  # noqa: PLC0415

        d = dict(src_dict)
        recovery = Recovery.from_dict(d.pop("recovery"))

        recovery_response = cls(
            recovery=recovery,
        )

        return recovery_response

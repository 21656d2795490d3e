from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, BinaryIO, Generator, TextIO, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

T = TypeVar("T", bound="StaticHeaderRead")


@_attrs_define
class StaticHeaderRead:
    """A static header as reads show it: a secret one without its value.

    Attributes:
        name (str):
        secret (bool):
        value (str | Unset):
    """

    name: str
    secret: bool
    value: str | Unset = UNSET

    def to_dict(self) -> dict[str, Any]:
        name = self.name

        secret = self.secret

        value = self.value

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "name": name,
                "secret": secret,
            }
        )
        if value is not UNSET:
            field_dict["value"] = value

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        name = d.pop("name")

        secret = d.pop("secret")

        value = d.pop("value", UNSET)

        static_header_read = cls(
            name=name,
            secret=secret,
            value=value,
        )

        return static_header_read

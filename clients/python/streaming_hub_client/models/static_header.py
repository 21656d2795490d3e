from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, BinaryIO, Generator, TextIO, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

T = TypeVar("T", bound="StaticHeader")


@_attrs_define
class StaticHeader:
    """A static request header as a PUT body gives it.

    Attributes:
        name (str):
        value (str):
        secret (bool | Unset):  Default: False.
    """

    name: str
    value: str
    secret: bool | Unset = False

    def to_dict(self) -> dict[str, Any]:
        name = self.name

        value = self.value

        secret = self.secret

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "name": name,
                "value": value,
            }
        )
        if secret is not UNSET:
            field_dict["secret"] = secret

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        name = d.pop("name")

        value = d.pop("value")

        secret = d.pop("secret", UNSET)

        static_header = cls(
            name=name,
            value=value,
            secret=secret,
        )

        return static_header

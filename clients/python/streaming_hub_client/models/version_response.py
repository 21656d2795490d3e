from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, BinaryIO, Generator, TextIO, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

T = TypeVar("T", bound="VersionResponse")


@_attrs_define
class VersionResponse:
    """
    Attributes:
        build_date (str):
        commit (str):
        version (str):
    """

    build_date: str
    commit: str
    version: str

    def to_dict(self) -> dict[str, Any]:
        build_date = self.build_date

        commit = self.commit

        version = self.version

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "buildDate": build_date,
                "commit": commit,
                "version": version,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        build_date = d.pop("buildDate")

        commit = d.pop("commit")

        version = d.pop("version")

        version_response = cls(
            build_date=build_date,
            commit=commit,
            version=version,
        )

        return version_response

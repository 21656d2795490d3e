from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, BinaryIO, Generator, TextIO, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

T = TypeVar("T", bound="DelegatedGrantRequest")


@_attrs_define
class DelegatedGrantRequest:
    """The delegated-grant body as the OpenAPI document shows it (parsed by ``grant_request``).

    Attributes:
        destination (str):
        region (str):
        role_arn (str):
    """

    destination: str
    region: str
    role_arn: str

    def to_dict(self) -> dict[str, Any]:
        destination = self.destination

        region = self.region

        role_arn = self.role_arn

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "destination": destination,
                "region": region,
                "roleArn": role_arn,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        destination = d.pop("destination")

        region = d.pop("region")

        role_arn = d.pop("roleArn")

        delegated_grant_request = cls(
            destination=destination,
            region=region,
            role_arn=role_arn,
        )

        return delegated_grant_request

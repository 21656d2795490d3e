from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, BinaryIO, Generator, TextIO, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

T = TypeVar("T", bound="SetupArtifactsResponse")


@_attrs_define
class SetupArtifactsResponse:
    """
    Attributes:
        external_id (str):
        quick_create_url (str):
        region (str):
        trust_policy (str):
    """

    external_id: str
    quick_create_url: str
    region: str
    trust_policy: str

    def to_dict(self) -> dict[str, Any]:
        external_id = self.external_id

        quick_create_url = self.quick_create_url

        region = self.region

        trust_policy = self.trust_policy

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "externalId": external_id,
                "quickCreateUrl": quick_create_url,
                "region": region,
                "trustPolicy": trust_policy,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        external_id = d.pop("externalId")

        quick_create_url = d.pop("quickCreateUrl")

        region = d.pop("region")

        trust_policy = d.pop("trustPolicy")

        setup_artifacts_response = cls(
            external_id=external_id,
            quick_create_url=quick_create_url,
            region=region,
            trust_policy=trust_policy,
        )

        return setup_artifacts_response

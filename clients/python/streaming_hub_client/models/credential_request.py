from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, BinaryIO, Generator, TextIO, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.credential_request_sinkconfig import CredentialRequestSinkconfig


T = TypeVar("T", bound="CredentialRequest")


@_attrs_define
class CredentialRequest:
    """The credential PUT body as the OpenAPI document shows it (parsed by ``sink_config``).

    Attributes:
        sink_config (CredentialRequestSinkconfig):
    """

    sink_config: CredentialRequestSinkconfig

    def to_dict(self) -> dict[str, Any]:
        from ..models.credential_request_sinkconfig import CredentialRequestSinkconfig  # noqa: PLC0415

        sink_config = self.sink_config.to_dict()

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "sinkConfig": sink_config,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.credential_request_sinkconfig import CredentialRequestSinkconfig  # noqa: PLC0415

        d = dict(src_dict)
        sink_config = CredentialRequestSinkconfig.from_dict(d.pop("sinkConfig"))

        credential_request = cls(
            sink_config=sink_config,
        )

        return credential_request

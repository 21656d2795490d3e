from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, BinaryIO, Generator, TextIO, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

T = TypeVar("T", bound="PatchSubscriptionRequest")


@_attrs_define
class PatchSubscriptionRequest:
    """The narrow change body: ``schema_major`` (required, nullable) and optional ``timeout_ms``; any
    other field is 422 ``validation_error`` (the delivery options have their own resource, N67).

        Attributes:
            schema_major (int | None):
            timeout_ms (int | Unset):
    """

    schema_major: int | None
    timeout_ms: int | Unset = UNSET

    def to_dict(self) -> dict[str, Any]:
        schema_major: int | None
        schema_major = self.schema_major

        timeout_ms = self.timeout_ms

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "schema_major": schema_major,
            }
        )
        if timeout_ms is not UNSET:
            field_dict["timeout_ms"] = timeout_ms

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)

        def _parse_schema_major(data: object) -> int | None:
            if data is None:
                return data
            return cast(int | None, data)

        schema_major = _parse_schema_major(d.pop("schema_major"))

        timeout_ms = d.pop("timeout_ms", UNSET)

        patch_subscription_request = cls(
            schema_major=schema_major,
            timeout_ms=timeout_ms,
        )

        return patch_subscription_request

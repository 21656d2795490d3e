from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, BinaryIO, Generator, TextIO, TypeVar, cast
from uuid import UUID

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..models.sink_kind import SinkKind
from ..models.subscription_read_credential_kind import SubscriptionReadCredentialKind
from ..models.verification_state import VerificationState
from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.subscription_read_event_majors import SubscriptionReadEventMajors


T = TypeVar("T", bound="SubscriptionRead")


@_attrs_define
class SubscriptionRead:
    """The list and detail projection: ``endpoint_display`` instead of the destination.

    Attributes:
        created_at (datetime.datetime):
        credential_kind (SubscriptionReadCredentialKind):
        enabled (bool):
        endpoint_display (str):
        id (UUID):
        name (str):
        plan_tier (str):
        secret_configured (bool):
        secret_overlap_until (datetime.datetime | None):
        secret_rotated_at (datetime.datetime | None):
        signature_version (int):
        sink_kind (SinkKind): Where a subscription's events go (the contract's ``SinkKind``).
        updated_at (datetime.datetime):
        verification_state (VerificationState):
        delegated_scope (str | Unset):
        event_majors (SubscriptionReadEventMajors | Unset):
        event_types (list[str] | Unset):
        origin (str | Unset):
        schema_major (int | Unset):
        timeout_ms (int | Unset):
    """

    created_at: datetime.datetime
    credential_kind: SubscriptionReadCredentialKind
    enabled: bool
    endpoint_display: str
    id: UUID
    name: str
    plan_tier: str
    secret_configured: bool
    secret_overlap_until: datetime.datetime | None
    secret_rotated_at: datetime.datetime | None
    signature_version: int
    sink_kind: SinkKind
    updated_at: datetime.datetime
    verification_state: VerificationState
    delegated_scope: str | Unset = UNSET
    event_majors: SubscriptionReadEventMajors | Unset = UNSET
    event_types: list[str] | Unset = UNSET
    origin: str | Unset = UNSET
    schema_major: int | Unset = UNSET
    timeout_ms: int | Unset = UNSET

    def to_dict(self) -> dict[str, Any]:
        from ..models.subscription_read_event_majors import SubscriptionReadEventMajors  # noqa: PLC0415

        created_at = self.created_at.isoformat()

        credential_kind = self.credential_kind.value

        enabled = self.enabled

        endpoint_display = self.endpoint_display

        id = str(self.id)

        name = self.name

        plan_tier = self.plan_tier

        secret_configured = self.secret_configured

        secret_overlap_until: None | str
        if isinstance(self.secret_overlap_until, datetime.datetime):
            secret_overlap_until = self.secret_overlap_until.isoformat()
        else:
            secret_overlap_until = self.secret_overlap_until

        secret_rotated_at: None | str
        if isinstance(self.secret_rotated_at, datetime.datetime):
            secret_rotated_at = self.secret_rotated_at.isoformat()
        else:
            secret_rotated_at = self.secret_rotated_at

        signature_version = self.signature_version

        sink_kind = self.sink_kind.value

        updated_at = self.updated_at.isoformat()

        verification_state = self.verification_state.value

        delegated_scope = self.delegated_scope

        event_majors: dict[str, Any] | Unset = UNSET
        if not isinstance(self.event_majors, Unset):
            event_majors = self.event_majors.to_dict()

        event_types: list[str] | Unset = UNSET
        if not isinstance(self.event_types, Unset):
            event_types = self.event_types

        origin = self.origin

        schema_major = self.schema_major

        timeout_ms = self.timeout_ms

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "created_at": created_at,
                "credential_kind": credential_kind,
                "enabled": enabled,
                "endpoint_display": endpoint_display,
                "id": id,
                "name": name,
                "plan_tier": plan_tier,
                "secret_configured": secret_configured,
                "secret_overlap_until": secret_overlap_until,
                "secret_rotated_at": secret_rotated_at,
                "signature_version": signature_version,
                "sink_kind": sink_kind,
                "updated_at": updated_at,
                "verification_state": verification_state,
            }
        )
        if delegated_scope is not UNSET:
            field_dict["delegated_scope"] = delegated_scope
        if event_majors is not UNSET:
            field_dict["event_majors"] = event_majors
        if event_types is not UNSET:
            field_dict["event_types"] = event_types
        if origin is not UNSET:
            field_dict["origin"] = origin
        if schema_major is not UNSET:
            field_dict["schema_major"] = schema_major
        if timeout_ms is not UNSET:
            field_dict["timeout_ms"] = timeout_ms

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.subscription_read_event_majors import SubscriptionReadEventMajors  # noqa: PLC0415

        d = dict(src_dict)
        created_at = datetime.datetime.fromisoformat(d.pop("created_at"))

        credential_kind = SubscriptionReadCredentialKind(d.pop("credential_kind"))

        enabled = d.pop("enabled")

        endpoint_display = d.pop("endpoint_display")

        id = UUID(d.pop("id"))

        name = d.pop("name")

        plan_tier = d.pop("plan_tier")

        secret_configured = d.pop("secret_configured")

        def _parse_secret_overlap_until(data: object) -> datetime.datetime | None:
            if data is None:
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                secret_overlap_until_type_0 = datetime.datetime.fromisoformat(data)

                return secret_overlap_until_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(datetime.datetime | None, data)

        secret_overlap_until = _parse_secret_overlap_until(
            d.pop("secret_overlap_until")
        )

        def _parse_secret_rotated_at(data: object) -> datetime.datetime | None:
            if data is None:
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                secret_rotated_at_type_0 = datetime.datetime.fromisoformat(data)

                return secret_rotated_at_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(datetime.datetime | None, data)

        secret_rotated_at = _parse_secret_rotated_at(d.pop("secret_rotated_at"))

        signature_version = d.pop("signature_version")

        sink_kind = SinkKind(d.pop("sink_kind"))

        updated_at = datetime.datetime.fromisoformat(d.pop("updated_at"))

        verification_state = VerificationState(d.pop("verification_state"))

        delegated_scope = d.pop("delegated_scope", UNSET)

        _event_majors = d.pop("event_majors", UNSET)
        event_majors: SubscriptionReadEventMajors | Unset
        if isinstance(_event_majors, Unset):
            event_majors = UNSET
        else:
            event_majors = SubscriptionReadEventMajors.from_dict(_event_majors)

        event_types = cast(list[str], d.pop("event_types", UNSET))

        origin = d.pop("origin", UNSET)

        schema_major = d.pop("schema_major", UNSET)

        timeout_ms = d.pop("timeout_ms", UNSET)

        subscription_read = cls(
            created_at=created_at,
            credential_kind=credential_kind,
            enabled=enabled,
            endpoint_display=endpoint_display,
            id=id,
            name=name,
            plan_tier=plan_tier,
            secret_configured=secret_configured,
            secret_overlap_until=secret_overlap_until,
            secret_rotated_at=secret_rotated_at,
            signature_version=signature_version,
            sink_kind=sink_kind,
            updated_at=updated_at,
            verification_state=verification_state,
            delegated_scope=delegated_scope,
            event_majors=event_majors,
            event_types=event_types,
            origin=origin,
            schema_major=schema_major,
            timeout_ms=timeout_ms,
        )

        return subscription_read

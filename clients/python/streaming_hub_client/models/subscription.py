from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, BinaryIO, Generator, TextIO, TypeVar, cast
from uuid import UUID

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..models.sink_kind import SinkKind
from ..models.verification_state import VerificationState
from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.subscription_event_majors import SubscriptionEventMajors


T = TypeVar("T", bound="Subscription")


@_attrs_define
class Subscription:
    """The create response's projection: the full ``endpoint``, no secret.

    Attributes:
        created_at (datetime.datetime):
        enabled (bool):
        endpoint (str):
        id (UUID):
        name (str):
        plan_tier (str):
        signature_version (int):
        sink_kind (SinkKind): Where a subscription's events go (the contract's ``SinkKind``).
        updated_at (datetime.datetime):
        verification_state (VerificationState):
        event_majors (SubscriptionEventMajors | Unset):
        event_types (list[str] | Unset):
        origin (str | Unset):
        schema_major (int | Unset):
        timeout_ms (int | Unset):
    """

    created_at: datetime.datetime
    enabled: bool
    endpoint: str
    id: UUID
    name: str
    plan_tier: str
    signature_version: int
    sink_kind: SinkKind
    updated_at: datetime.datetime
    verification_state: VerificationState
    event_majors: SubscriptionEventMajors | Unset = UNSET
    event_types: list[str] | Unset = UNSET
    origin: str | Unset = UNSET
    schema_major: int | Unset = UNSET
    timeout_ms: int | Unset = UNSET

    def to_dict(self) -> dict[str, Any]:
        from ..models.subscription_event_majors import SubscriptionEventMajors  # noqa: PLC0415

        created_at = self.created_at.isoformat()

        enabled = self.enabled

        endpoint = self.endpoint

        id = str(self.id)

        name = self.name

        plan_tier = self.plan_tier

        signature_version = self.signature_version

        sink_kind = self.sink_kind.value

        updated_at = self.updated_at.isoformat()

        verification_state = self.verification_state.value

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
                "enabled": enabled,
                "endpoint": endpoint,
                "id": id,
                "name": name,
                "plan_tier": plan_tier,
                "signature_version": signature_version,
                "sink_kind": sink_kind,
                "updated_at": updated_at,
                "verification_state": verification_state,
            }
        )
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
        from ..models.subscription_event_majors import SubscriptionEventMajors  # noqa: PLC0415

        d = dict(src_dict)
        created_at = datetime.datetime.fromisoformat(d.pop("created_at"))

        enabled = d.pop("enabled")

        endpoint = d.pop("endpoint")

        id = UUID(d.pop("id"))

        name = d.pop("name")

        plan_tier = d.pop("plan_tier")

        signature_version = d.pop("signature_version")

        sink_kind = SinkKind(d.pop("sink_kind"))

        updated_at = datetime.datetime.fromisoformat(d.pop("updated_at"))

        verification_state = VerificationState(d.pop("verification_state"))

        _event_majors = d.pop("event_majors", UNSET)
        event_majors: SubscriptionEventMajors | Unset
        if isinstance(_event_majors, Unset):
            event_majors = UNSET
        else:
            event_majors = SubscriptionEventMajors.from_dict(_event_majors)

        event_types = cast(list[str], d.pop("event_types", UNSET))

        origin = d.pop("origin", UNSET)

        schema_major = d.pop("schema_major", UNSET)

        timeout_ms = d.pop("timeout_ms", UNSET)

        subscription = cls(
            created_at=created_at,
            enabled=enabled,
            endpoint=endpoint,
            id=id,
            name=name,
            plan_tier=plan_tier,
            signature_version=signature_version,
            sink_kind=sink_kind,
            updated_at=updated_at,
            verification_state=verification_state,
            event_majors=event_majors,
            event_types=event_types,
            origin=origin,
            schema_major=schema_major,
            timeout_ms=timeout_ms,
        )

        return subscription

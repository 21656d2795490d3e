from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, BinaryIO, Generator, TextIO, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..models.sink_kind import SinkKind
from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.create_subscription_request_event_majors import (
        CreateSubscriptionRequestEventMajors,
    )


T = TypeVar("T", bound="CreateSubscriptionRequest")


@_attrs_define
class CreateSubscriptionRequest:
    """The create body. Unknown fields are ignored (``tenant_id``) or refused by the hub
    (``sink_config`` / ``credential`` → ``inline_sink_config_forbidden``; the delivery options
    ``filter``, ``headers``, ``rate_limit_per_second`` → ``validation_error``, N67).

        Attributes:
            name (str):
            sink_kind (SinkKind): Where a subscription's events go (the contract's ``SinkKind``).
            endpoint (str | Unset):
            event_majors (CreateSubscriptionRequestEventMajors | Unset):
            event_types (list[str] | Unset):
            origin (str | Unset):
            plan_tier (str | Unset):
            schema_major (int | Unset):
            timeout_ms (int | Unset):
    """

    name: str
    sink_kind: SinkKind
    endpoint: str | Unset = UNSET
    event_majors: CreateSubscriptionRequestEventMajors | Unset = UNSET
    event_types: list[str] | Unset = UNSET
    origin: str | Unset = UNSET
    plan_tier: str | Unset = UNSET
    schema_major: int | Unset = UNSET
    timeout_ms: int | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        from ..models.create_subscription_request_event_majors import (
            CreateSubscriptionRequestEventMajors,  # noqa: PLC0415
        )

        name = self.name

        sink_kind = self.sink_kind.value

        endpoint = self.endpoint

        event_majors: dict[str, Any] | Unset = UNSET
        if not isinstance(self.event_majors, Unset):
            event_majors = self.event_majors.to_dict()

        event_types: list[str] | Unset = UNSET
        if not isinstance(self.event_types, Unset):
            event_types = self.event_types

        origin = self.origin

        plan_tier = self.plan_tier

        schema_major = self.schema_major

        timeout_ms = self.timeout_ms

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "name": name,
                "sink_kind": sink_kind,
            }
        )
        if endpoint is not UNSET:
            field_dict["endpoint"] = endpoint
        if event_majors is not UNSET:
            field_dict["event_majors"] = event_majors
        if event_types is not UNSET:
            field_dict["event_types"] = event_types
        if origin is not UNSET:
            field_dict["origin"] = origin
        if plan_tier is not UNSET:
            field_dict["plan_tier"] = plan_tier
        if schema_major is not UNSET:
            field_dict["schema_major"] = schema_major
        if timeout_ms is not UNSET:
            field_dict["timeout_ms"] = timeout_ms

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.create_subscription_request_event_majors import (
            CreateSubscriptionRequestEventMajors,  # noqa: PLC0415
        )

        d = dict(src_dict)
        name = d.pop("name")

        sink_kind = SinkKind(d.pop("sink_kind"))

        endpoint = d.pop("endpoint", UNSET)

        _event_majors = d.pop("event_majors", UNSET)
        event_majors: CreateSubscriptionRequestEventMajors | Unset
        if isinstance(_event_majors, Unset):
            event_majors = UNSET
        else:
            event_majors = CreateSubscriptionRequestEventMajors.from_dict(_event_majors)

        event_types = cast(list[str], d.pop("event_types", UNSET))

        origin = d.pop("origin", UNSET)

        plan_tier = d.pop("plan_tier", UNSET)

        schema_major = d.pop("schema_major", UNSET)

        timeout_ms = d.pop("timeout_ms", UNSET)

        create_subscription_request = cls(
            name=name,
            sink_kind=sink_kind,
            endpoint=endpoint,
            event_majors=event_majors,
            event_types=event_types,
            origin=origin,
            plan_tier=plan_tier,
            schema_major=schema_major,
            timeout_ms=timeout_ms,
        )

        create_subscription_request.additional_properties = d
        return create_subscription_request

    @property
    def additional_keys(self) -> list[str]:
        return list(self.additional_properties.keys())

    def __getitem__(self, key: str) -> Any:
        return self.additional_properties[key]

    def __setitem__(self, key: str, value: Any) -> None:
        self.additional_properties[key] = value

    def __delitem__(self, key: str) -> None:
        del self.additional_properties[key]

    def __contains__(self, key: str) -> bool:
        return key in self.additional_properties

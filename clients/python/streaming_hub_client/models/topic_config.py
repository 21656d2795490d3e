from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, BinaryIO, Generator, TextIO, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

T = TypeVar("T", bound="TopicConfig")


@_attrs_define
class TopicConfig:
    """A Main Topic's effective history window (a null bound is unbounded).

    Attributes:
        default (bool): `true` when nothing is stored: the system default window.
        inserted_at (datetime.datetime | None):
        max_events (int | None):
        topic (str):
        ttl_seconds (int | None):
        updated_at (datetime.datetime | None):
    """

    default: bool
    inserted_at: datetime.datetime | None
    max_events: int | None
    topic: str
    ttl_seconds: int | None
    updated_at: datetime.datetime | None
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        default = self.default

        inserted_at: None | str
        if isinstance(self.inserted_at, datetime.datetime):
            inserted_at = self.inserted_at.isoformat()
        else:
            inserted_at = self.inserted_at

        max_events: int | None
        max_events = self.max_events

        topic = self.topic

        ttl_seconds: int | None
        ttl_seconds = self.ttl_seconds

        updated_at: None | str
        if isinstance(self.updated_at, datetime.datetime):
            updated_at = self.updated_at.isoformat()
        else:
            updated_at = self.updated_at

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "default": default,
                "inserted_at": inserted_at,
                "max_events": max_events,
                "topic": topic,
                "ttl_seconds": ttl_seconds,
                "updated_at": updated_at,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        default = d.pop("default")

        def _parse_inserted_at(data: object) -> datetime.datetime | None:
            if data is None:
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                inserted_at_type_0 = datetime.datetime.fromisoformat(data)

                return inserted_at_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(datetime.datetime | None, data)

        inserted_at = _parse_inserted_at(d.pop("inserted_at"))

        def _parse_max_events(data: object) -> int | None:
            if data is None:
                return data
            return cast(int | None, data)

        max_events = _parse_max_events(d.pop("max_events"))

        topic = d.pop("topic")

        def _parse_ttl_seconds(data: object) -> int | None:
            if data is None:
                return data
            return cast(int | None, data)

        ttl_seconds = _parse_ttl_seconds(d.pop("ttl_seconds"))

        def _parse_updated_at(data: object) -> datetime.datetime | None:
            if data is None:
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                updated_at_type_0 = datetime.datetime.fromisoformat(data)

                return updated_at_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(datetime.datetime | None, data)

        updated_at = _parse_updated_at(d.pop("updated_at"))

        topic_config = cls(
            default=default,
            inserted_at=inserted_at,
            max_events=max_events,
            topic=topic,
            ttl_seconds=ttl_seconds,
            updated_at=updated_at,
        )

        topic_config.additional_properties = d
        return topic_config

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

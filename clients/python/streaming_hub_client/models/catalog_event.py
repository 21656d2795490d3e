from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, BinaryIO, Generator, TextIO, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

T = TypeVar("T", bound="CatalogEvent")


@_attrs_define
class CatalogEvent:
    """
    Attributes:
        description (str):
        event_key (str):
        event_type (str):
        resource_type (str):
        schema_major (int):
        schema_version (str):
        source (str):
        topic (str):
        data_schema (str | Unset):  Default: ''.
    """

    description: str
    event_key: str
    event_type: str
    resource_type: str
    schema_major: int
    schema_version: str
    source: str
    topic: str
    data_schema: str | Unset = ""

    def to_dict(self) -> dict[str, Any]:
        description = self.description

        event_key = self.event_key

        event_type = self.event_type

        resource_type = self.resource_type

        schema_major = self.schema_major

        schema_version = self.schema_version

        source = self.source

        topic = self.topic

        data_schema = self.data_schema

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "description": description,
                "eventKey": event_key,
                "eventType": event_type,
                "resourceType": resource_type,
                "schemaMajor": schema_major,
                "schemaVersion": schema_version,
                "source": source,
                "topic": topic,
            }
        )
        if data_schema is not UNSET:
            field_dict["dataSchema"] = data_schema

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        description = d.pop("description")

        event_key = d.pop("eventKey")

        event_type = d.pop("eventType")

        resource_type = d.pop("resourceType")

        schema_major = d.pop("schemaMajor")

        schema_version = d.pop("schemaVersion")

        source = d.pop("source")

        topic = d.pop("topic")

        data_schema = d.pop("dataSchema", UNSET)

        catalog_event = cls(
            description=description,
            event_key=event_key,
            event_type=event_type,
            resource_type=resource_type,
            schema_major=schema_major,
            schema_version=schema_version,
            source=source,
            topic=topic,
            data_schema=data_schema,
        )

        return catalog_event

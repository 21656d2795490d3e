from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, BinaryIO, Generator, TextIO, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.catalog_event import CatalogEvent
    from ..models.catalog_producer import CatalogProducer


T = TypeVar("T", bound="CatalogResponse")


@_attrs_define
class CatalogResponse:
    """
    Attributes:
        events (list[CatalogEvent]):
        producers (list[CatalogProducer]):
    """

    events: list[CatalogEvent]
    producers: list[CatalogProducer]

    def to_dict(self) -> dict[str, Any]:
        from ..models.catalog_event import CatalogEvent  # noqa: PLC0415
        from ..models.catalog_producer import CatalogProducer  # noqa: PLC0415

        events = []
        for events_item_data in self.events:
            events_item = events_item_data.to_dict()
            events.append(events_item)

        producers = []
        for producers_item_data in self.producers:
            producers_item = producers_item_data.to_dict()
            producers.append(producers_item)

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "events": events,
                "producers": producers,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.catalog_event import CatalogEvent  # noqa: PLC0415
        from ..models.catalog_producer import CatalogProducer  # noqa: PLC0415

        d = dict(src_dict)
        events = []
        _events = d.pop("events")
        for events_item_data in _events:
            events_item = CatalogEvent.from_dict(events_item_data)

            events.append(events_item)

        producers = []
        _producers = d.pop("producers")
        for producers_item_data in _producers:
            producers_item = CatalogProducer.from_dict(producers_item_data)

            producers.append(producers_item)

        catalog_response = cls(
            events=events,
            producers=producers,
        )

        return catalog_response

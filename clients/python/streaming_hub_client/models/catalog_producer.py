from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, BinaryIO, Generator, TextIO, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..models.catalog_producer_last_refresh_error_class import (
    CatalogProducerLastRefreshErrorClass,
)
from ..types import UNSET, Unset

T = TypeVar("T", bound="CatalogProducer")


@_attrs_define
class CatalogProducer:
    """
    Attributes:
        fetched_at (datetime.datetime | None):
        last_refresh_error_class (CatalogProducerLastRefreshErrorClass | None):
        last_refresh_failed_at (datetime.datetime | None):
        source (None | str):
        target (str):
    """

    fetched_at: datetime.datetime | None
    last_refresh_error_class: CatalogProducerLastRefreshErrorClass | None
    last_refresh_failed_at: datetime.datetime | None
    source: None | str
    target: str

    def to_dict(self) -> dict[str, Any]:
        fetched_at: None | str
        if isinstance(self.fetched_at, datetime.datetime):
            fetched_at = self.fetched_at.isoformat()
        else:
            fetched_at = self.fetched_at

        last_refresh_error_class: None | str
        if isinstance(
            self.last_refresh_error_class, CatalogProducerLastRefreshErrorClass
        ):
            last_refresh_error_class = self.last_refresh_error_class.value
        else:
            last_refresh_error_class = self.last_refresh_error_class

        last_refresh_failed_at: None | str
        if isinstance(self.last_refresh_failed_at, datetime.datetime):
            last_refresh_failed_at = self.last_refresh_failed_at.isoformat()
        else:
            last_refresh_failed_at = self.last_refresh_failed_at

        source: None | str
        source = self.source

        target = self.target

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "fetched_at": fetched_at,
                "last_refresh_error_class": last_refresh_error_class,
                "last_refresh_failed_at": last_refresh_failed_at,
                "source": source,
                "target": target,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)

        def _parse_fetched_at(data: object) -> datetime.datetime | None:
            if data is None:
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                fetched_at_type_0 = datetime.datetime.fromisoformat(data)

                return fetched_at_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(datetime.datetime | None, data)

        fetched_at = _parse_fetched_at(d.pop("fetched_at"))

        def _parse_last_refresh_error_class(
            data: object,
        ) -> CatalogProducerLastRefreshErrorClass | None:
            if data is None:
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                last_refresh_error_class_type_1 = CatalogProducerLastRefreshErrorClass(
                    data
                )

                return last_refresh_error_class_type_1
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(CatalogProducerLastRefreshErrorClass | None, data)

        last_refresh_error_class = _parse_last_refresh_error_class(
            d.pop("last_refresh_error_class")
        )

        def _parse_last_refresh_failed_at(data: object) -> datetime.datetime | None:
            if data is None:
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                last_refresh_failed_at_type_0 = datetime.datetime.fromisoformat(data)

                return last_refresh_failed_at_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(datetime.datetime | None, data)

        last_refresh_failed_at = _parse_last_refresh_failed_at(
            d.pop("last_refresh_failed_at")
        )

        def _parse_source(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        source = _parse_source(d.pop("source"))

        target = d.pop("target")

        catalog_producer = cls(
            fetched_at=fetched_at,
            last_refresh_error_class=last_refresh_error_class,
            last_refresh_failed_at=last_refresh_failed_at,
            source=source,
            target=target,
        )

        return catalog_producer

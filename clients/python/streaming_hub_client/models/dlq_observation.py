from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, BinaryIO, Generator, TextIO, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

T = TypeVar("T", bound="DLQObservation")


@_attrs_define
class DLQObservation:
    """
    Attributes:
        error_class (str):
        error_message (str):
        first_failure_at (datetime.datetime):
        observed_at (datetime.datetime):
        producer_id (str):
        retry_count (int):
        source_topic (str):
        tenant_id_raw (str):
    """

    error_class: str
    error_message: str
    first_failure_at: datetime.datetime
    observed_at: datetime.datetime
    producer_id: str
    retry_count: int
    source_topic: str
    tenant_id_raw: str

    def to_dict(self) -> dict[str, Any]:
        error_class = self.error_class

        error_message = self.error_message

        first_failure_at = self.first_failure_at.isoformat()

        observed_at = self.observed_at.isoformat()

        producer_id = self.producer_id

        retry_count = self.retry_count

        source_topic = self.source_topic

        tenant_id_raw = self.tenant_id_raw

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "error_class": error_class,
                "error_message": error_message,
                "first_failure_at": first_failure_at,
                "observed_at": observed_at,
                "producer_id": producer_id,
                "retry_count": retry_count,
                "source_topic": source_topic,
                "tenant_id_raw": tenant_id_raw,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        error_class = d.pop("error_class")

        error_message = d.pop("error_message")

        first_failure_at = datetime.datetime.fromisoformat(d.pop("first_failure_at"))

        observed_at = datetime.datetime.fromisoformat(d.pop("observed_at"))

        producer_id = d.pop("producer_id")

        retry_count = d.pop("retry_count")

        source_topic = d.pop("source_topic")

        tenant_id_raw = d.pop("tenant_id_raw")

        dlq_observation = cls(
            error_class=error_class,
            error_message=error_message,
            first_failure_at=first_failure_at,
            observed_at=observed_at,
            producer_id=producer_id,
            retry_count=retry_count,
            source_topic=source_topic,
            tenant_id_raw=tenant_id_raw,
        )

        return dlq_observation

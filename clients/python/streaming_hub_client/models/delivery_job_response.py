from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, BinaryIO, Generator, TextIO, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.delivery_job_record import DeliveryJobRecord


T = TypeVar("T", bound="DeliveryJobResponse")


@_attrs_define
class DeliveryJobResponse:
    """
    Attributes:
        delivery (DeliveryJobRecord):
    """

    delivery: DeliveryJobRecord

    def to_dict(self) -> dict[str, Any]:
        from ..models.delivery_job_record import DeliveryJobRecord  # noqa: PLC0415

        delivery = self.delivery.to_dict()

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "delivery": delivery,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.delivery_job_record import DeliveryJobRecord  # noqa: PLC0415

        d = dict(src_dict)
        delivery = DeliveryJobRecord.from_dict(d.pop("delivery"))

        delivery_job_response = cls(
            delivery=delivery,
        )

        return delivery_job_response

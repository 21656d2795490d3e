from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, BinaryIO, Generator, TextIO, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.subscription_read import SubscriptionRead


T = TypeVar("T", bound="SubscriptionResponse")


@_attrs_define
class SubscriptionResponse:
    """
    Attributes:
        subscription (SubscriptionRead): The list and detail projection: ``endpoint_display`` instead of the
            destination.
    """

    subscription: SubscriptionRead

    def to_dict(self) -> dict[str, Any]:
        from ..models.subscription_read import SubscriptionRead  # noqa: PLC0415

        subscription = self.subscription.to_dict()

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "subscription": subscription,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.subscription_read import SubscriptionRead  # noqa: PLC0415

        d = dict(src_dict)
        subscription = SubscriptionRead.from_dict(d.pop("subscription"))

        subscription_response = cls(
            subscription=subscription,
        )

        return subscription_response

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, BinaryIO, Generator, TextIO, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.subscription_read import SubscriptionRead


T = TypeVar("T", bound="ListSubscriptionsResponse")


@_attrs_define
class ListSubscriptionsResponse:
    """
    Attributes:
        next_cursor (str):
        subscriptions (list[SubscriptionRead]):
    """

    next_cursor: str
    subscriptions: list[SubscriptionRead]

    def to_dict(self) -> dict[str, Any]:
        from ..models.subscription_read import SubscriptionRead  # noqa: PLC0415

        next_cursor = self.next_cursor

        subscriptions = []
        for subscriptions_item_data in self.subscriptions:
            subscriptions_item = subscriptions_item_data.to_dict()
            subscriptions.append(subscriptions_item)

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "next_cursor": next_cursor,
                "subscriptions": subscriptions,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.subscription_read import SubscriptionRead  # noqa: PLC0415

        d = dict(src_dict)
        next_cursor = d.pop("next_cursor")

        subscriptions = []
        _subscriptions = d.pop("subscriptions")
        for subscriptions_item_data in _subscriptions:
            subscriptions_item = SubscriptionRead.from_dict(subscriptions_item_data)

            subscriptions.append(subscriptions_item)

        list_subscriptions_response = cls(
            next_cursor=next_cursor,
            subscriptions=subscriptions,
        )

        return list_subscriptions_response

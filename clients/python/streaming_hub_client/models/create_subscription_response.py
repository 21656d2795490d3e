from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, BinaryIO, Generator, TextIO, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.subscription import Subscription


T = TypeVar("T", bound="CreateSubscriptionResponse")


@_attrs_define
class CreateSubscriptionResponse:
    """
    Attributes:
        signing_secret (str):
        subscription (Subscription): The create response's projection: the full ``endpoint``, no secret.
    """

    signing_secret: str
    subscription: Subscription

    def to_dict(self) -> dict[str, Any]:
        from ..models.subscription import Subscription  # noqa: PLC0415

        signing_secret = self.signing_secret

        subscription = self.subscription.to_dict()

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "signingSecret": signing_secret,
                "subscription": subscription,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.subscription import Subscription  # noqa: PLC0415

        d = dict(src_dict)
        signing_secret = d.pop("signingSecret")

        subscription = Subscription.from_dict(d.pop("subscription"))

        create_subscription_response = cls(
            signing_secret=signing_secret,
            subscription=subscription,
        )

        return create_subscription_response

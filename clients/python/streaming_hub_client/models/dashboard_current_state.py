from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, BinaryIO, Generator, TextIO, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.dashboard_current_push import DashboardCurrentPush
    from ..models.dashboard_subscription_census import DashboardSubscriptionCensus


T = TypeVar("T", bound="DashboardCurrentState")


@_attrs_define
class DashboardCurrentState:
    """
    Attributes:
        push (DashboardCurrentPush):
        subscriptions (DashboardSubscriptionCensus):
    """

    push: DashboardCurrentPush
    subscriptions: DashboardSubscriptionCensus

    def to_dict(self) -> dict[str, Any]:
        from ..models.dashboard_current_push import DashboardCurrentPush  # noqa: PLC0415
        from ..models.dashboard_subscription_census import DashboardSubscriptionCensus  # noqa: PLC0415

        push = self.push.to_dict()

        subscriptions = self.subscriptions.to_dict()

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "push": push,
                "subscriptions": subscriptions,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.dashboard_current_push import DashboardCurrentPush  # noqa: PLC0415
        from ..models.dashboard_subscription_census import DashboardSubscriptionCensus  # noqa: PLC0415

        d = dict(src_dict)
        push = DashboardCurrentPush.from_dict(d.pop("push"))

        subscriptions = DashboardSubscriptionCensus.from_dict(d.pop("subscriptions"))

        dashboard_current_state = cls(
            push=push,
            subscriptions=subscriptions,
        )

        return dashboard_current_state

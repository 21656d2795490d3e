from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, BinaryIO, Generator, TextIO, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

T = TypeVar("T", bound="DashboardPullPeriod")


@_attrs_define
class DashboardPullPeriod:
    """
    Attributes:
        eligible_events (int):
        eligible_subscription_matches (int):
    """

    eligible_events: int
    eligible_subscription_matches: int

    def to_dict(self) -> dict[str, Any]:
        eligible_events = self.eligible_events

        eligible_subscription_matches = self.eligible_subscription_matches

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "eligible_events": eligible_events,
                "eligible_subscription_matches": eligible_subscription_matches,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        eligible_events = d.pop("eligible_events")

        eligible_subscription_matches = d.pop("eligible_subscription_matches")

        dashboard_pull_period = cls(
            eligible_events=eligible_events,
            eligible_subscription_matches=eligible_subscription_matches,
        )

        return dashboard_pull_period

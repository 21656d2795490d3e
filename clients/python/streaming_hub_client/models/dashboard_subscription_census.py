from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, BinaryIO, Generator, TextIO, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.dashboard_channel_counts import DashboardChannelCounts
    from ..models.dashboard_enabled_counts import DashboardEnabledCounts
    from ..models.dashboard_sink_kind_counts import DashboardSinkKindCounts
    from ..models.dashboard_verification_state_counts import (
        DashboardVerificationStateCounts,
    )


T = TypeVar("T", bound="DashboardSubscriptionCensus")


@_attrs_define
class DashboardSubscriptionCensus:
    """
    Attributes:
        by_channel (DashboardChannelCounts):
        by_enabled (DashboardEnabledCounts):
        by_sink_kind (DashboardSinkKindCounts):
        by_verification_state (DashboardVerificationStateCounts):
        total (int):
    """

    by_channel: DashboardChannelCounts
    by_enabled: DashboardEnabledCounts
    by_sink_kind: DashboardSinkKindCounts
    by_verification_state: DashboardVerificationStateCounts
    total: int

    def to_dict(self) -> dict[str, Any]:
        from ..models.dashboard_channel_counts import DashboardChannelCounts  # noqa: PLC0415
        from ..models.dashboard_enabled_counts import DashboardEnabledCounts  # noqa: PLC0415
        from ..models.dashboard_sink_kind_counts import DashboardSinkKindCounts  # noqa: PLC0415
        from ..models.dashboard_verification_state_counts import (
            DashboardVerificationStateCounts,  # noqa: PLC0415
        )

        by_channel = self.by_channel.to_dict()

        by_enabled = self.by_enabled.to_dict()

        by_sink_kind = self.by_sink_kind.to_dict()

        by_verification_state = self.by_verification_state.to_dict()

        total = self.total

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "by_channel": by_channel,
                "by_enabled": by_enabled,
                "by_sink_kind": by_sink_kind,
                "by_verification_state": by_verification_state,
                "total": total,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.dashboard_channel_counts import DashboardChannelCounts  # noqa: PLC0415
        from ..models.dashboard_enabled_counts import DashboardEnabledCounts  # noqa: PLC0415
        from ..models.dashboard_sink_kind_counts import DashboardSinkKindCounts  # noqa: PLC0415
        from ..models.dashboard_verification_state_counts import (
            DashboardVerificationStateCounts,  # noqa: PLC0415
        )

        d = dict(src_dict)
        by_channel = DashboardChannelCounts.from_dict(d.pop("by_channel"))

        by_enabled = DashboardEnabledCounts.from_dict(d.pop("by_enabled"))

        by_sink_kind = DashboardSinkKindCounts.from_dict(d.pop("by_sink_kind"))

        by_verification_state = DashboardVerificationStateCounts.from_dict(
            d.pop("by_verification_state")
        )

        total = d.pop("total")

        dashboard_subscription_census = cls(
            by_channel=by_channel,
            by_enabled=by_enabled,
            by_sink_kind=by_sink_kind,
            by_verification_state=by_verification_state,
            total=total,
        )

        return dashboard_subscription_census

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, BinaryIO, Generator, TextIO, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.dashboard_pull_period import DashboardPullPeriod
    from ..models.dashboard_push_period import DashboardPushPeriod
    from ..models.dashboard_time_bucket import DashboardTimeBucket


T = TypeVar("T", bound="DashboardSelectedPeriod")


@_attrs_define
class DashboardSelectedPeriod:
    """
    Attributes:
        events_received (int):
        pull (DashboardPullPeriod | None):
        pull_omitted_reason (None | str):
        pull_window_ceiling_hours (int):
        push (DashboardPushPeriod):
        time_series (list[DashboardTimeBucket]):
    """

    events_received: int
    pull: DashboardPullPeriod | None
    pull_omitted_reason: None | str
    pull_window_ceiling_hours: int
    push: DashboardPushPeriod
    time_series: list[DashboardTimeBucket]

    def to_dict(self) -> dict[str, Any]:
        from ..models.dashboard_pull_period import DashboardPullPeriod  # noqa: PLC0415
        from ..models.dashboard_push_period import DashboardPushPeriod  # noqa: PLC0415
        from ..models.dashboard_time_bucket import DashboardTimeBucket  # noqa: PLC0415

        events_received = self.events_received

        pull: dict[str, Any] | None
        if isinstance(self.pull, DashboardPullPeriod):
            pull = self.pull.to_dict()
        else:
            pull = self.pull

        pull_omitted_reason: None | str
        pull_omitted_reason = self.pull_omitted_reason

        pull_window_ceiling_hours = self.pull_window_ceiling_hours

        push = self.push.to_dict()

        time_series = []
        for time_series_item_data in self.time_series:
            time_series_item = time_series_item_data.to_dict()
            time_series.append(time_series_item)

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "events_received": events_received,
                "pull": pull,
                "pull_omitted_reason": pull_omitted_reason,
                "pull_window_ceiling_hours": pull_window_ceiling_hours,
                "push": push,
                "time_series": time_series,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.dashboard_pull_period import DashboardPullPeriod  # noqa: PLC0415
        from ..models.dashboard_push_period import DashboardPushPeriod  # noqa: PLC0415
        from ..models.dashboard_time_bucket import DashboardTimeBucket  # noqa: PLC0415

        d = dict(src_dict)
        events_received = d.pop("events_received")

        def _parse_pull(data: object) -> DashboardPullPeriod | None:
            if data is None:
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                pull_type_0 = DashboardPullPeriod.from_dict(data)

                return pull_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(DashboardPullPeriod | None, data)

        pull = _parse_pull(d.pop("pull"))

        def _parse_pull_omitted_reason(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        pull_omitted_reason = _parse_pull_omitted_reason(d.pop("pull_omitted_reason"))

        pull_window_ceiling_hours = d.pop("pull_window_ceiling_hours")

        push = DashboardPushPeriod.from_dict(d.pop("push"))

        time_series = []
        _time_series = d.pop("time_series")
        for time_series_item_data in _time_series:
            time_series_item = DashboardTimeBucket.from_dict(time_series_item_data)

            time_series.append(time_series_item)

        dashboard_selected_period = cls(
            events_received=events_received,
            pull=pull,
            pull_omitted_reason=pull_omitted_reason,
            pull_window_ceiling_hours=pull_window_ceiling_hours,
            push=push,
            time_series=time_series,
        )

        return dashboard_selected_period

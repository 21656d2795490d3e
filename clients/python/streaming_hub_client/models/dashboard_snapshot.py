from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, BinaryIO, Generator, TextIO, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.dashboard_current_state import DashboardCurrentState
    from ..models.dashboard_selected_period import DashboardSelectedPeriod


T = TypeVar("T", bound="DashboardSnapshot")


@_attrs_define
class DashboardSnapshot:
    """Documents ``GET /v1/dashboard``'s body; the route serves ``as_snapshot``'s dict.

    Attributes:
        coverage_start (datetime.datetime):
        current_state (DashboardCurrentState):
        selected_period (DashboardSelectedPeriod):
        snapshot_at (datetime.datetime):
        window_end (datetime.datetime):
        window_start (datetime.datetime):
    """

    coverage_start: datetime.datetime
    current_state: DashboardCurrentState
    selected_period: DashboardSelectedPeriod
    snapshot_at: datetime.datetime
    window_end: datetime.datetime
    window_start: datetime.datetime

    def to_dict(self) -> dict[str, Any]:
        from ..models.dashboard_current_state import DashboardCurrentState  # noqa: PLC0415
        from ..models.dashboard_selected_period import DashboardSelectedPeriod  # noqa: PLC0415

        coverage_start = self.coverage_start.isoformat()

        current_state = self.current_state.to_dict()

        selected_period = self.selected_period.to_dict()

        snapshot_at = self.snapshot_at.isoformat()

        window_end = self.window_end.isoformat()

        window_start = self.window_start.isoformat()

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "coverage_start": coverage_start,
                "current_state": current_state,
                "selected_period": selected_period,
                "snapshot_at": snapshot_at,
                "window_end": window_end,
                "window_start": window_start,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.dashboard_current_state import DashboardCurrentState  # noqa: PLC0415
        from ..models.dashboard_selected_period import DashboardSelectedPeriod  # noqa: PLC0415

        d = dict(src_dict)
        coverage_start = datetime.datetime.fromisoformat(d.pop("coverage_start"))

        current_state = DashboardCurrentState.from_dict(d.pop("current_state"))

        selected_period = DashboardSelectedPeriod.from_dict(d.pop("selected_period"))

        snapshot_at = datetime.datetime.fromisoformat(d.pop("snapshot_at"))

        window_end = datetime.datetime.fromisoformat(d.pop("window_end"))

        window_start = datetime.datetime.fromisoformat(d.pop("window_start"))

        dashboard_snapshot = cls(
            coverage_start=coverage_start,
            current_state=current_state,
            selected_period=selected_period,
            snapshot_at=snapshot_at,
            window_end=window_end,
            window_start=window_start,
        )

        return dashboard_snapshot

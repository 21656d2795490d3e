from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, BinaryIO, Generator, TextIO, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.dashboard_pull_period import DashboardPullPeriod
    from ..models.dashboard_push_period import DashboardPushPeriod


T = TypeVar("T", bound="DashboardTimeBucket")


@_attrs_define
class DashboardTimeBucket:
    """
    Attributes:
        bucket_end (datetime.datetime):
        bucket_start (datetime.datetime):
        events_received (int):
        pull (DashboardPullPeriod | None):
        push (DashboardPushPeriod):
    """

    bucket_end: datetime.datetime
    bucket_start: datetime.datetime
    events_received: int
    pull: DashboardPullPeriod | None
    push: DashboardPushPeriod

    def to_dict(self) -> dict[str, Any]:
        from ..models.dashboard_pull_period import DashboardPullPeriod  # noqa: PLC0415
        from ..models.dashboard_push_period import DashboardPushPeriod  # noqa: PLC0415

        bucket_end = self.bucket_end.isoformat()

        bucket_start = self.bucket_start.isoformat()

        events_received = self.events_received

        pull: dict[str, Any] | None
        if isinstance(self.pull, DashboardPullPeriod):
            pull = self.pull.to_dict()
        else:
            pull = self.pull

        push = self.push.to_dict()

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "bucket_end": bucket_end,
                "bucket_start": bucket_start,
                "events_received": events_received,
                "pull": pull,
                "push": push,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.dashboard_pull_period import DashboardPullPeriod  # noqa: PLC0415
        from ..models.dashboard_push_period import DashboardPushPeriod  # noqa: PLC0415

        d = dict(src_dict)
        bucket_end = datetime.datetime.fromisoformat(d.pop("bucket_end"))

        bucket_start = datetime.datetime.fromisoformat(d.pop("bucket_start"))

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

        push = DashboardPushPeriod.from_dict(d.pop("push"))

        dashboard_time_bucket = cls(
            bucket_end=bucket_end,
            bucket_start=bucket_start,
            events_received=events_received,
            pull=pull,
            push=push,
        )

        return dashboard_time_bucket

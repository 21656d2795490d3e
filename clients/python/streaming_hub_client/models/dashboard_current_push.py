from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, BinaryIO, Generator, TextIO, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

T = TypeVar("T", bound="DashboardCurrentPush")


@_attrs_define
class DashboardCurrentPush:
    """
    Attributes:
        oldest_pending_job_age_seconds (int | None):
        pending_jobs (int):
    """

    oldest_pending_job_age_seconds: int | None
    pending_jobs: int

    def to_dict(self) -> dict[str, Any]:
        oldest_pending_job_age_seconds: int | None
        oldest_pending_job_age_seconds = self.oldest_pending_job_age_seconds

        pending_jobs = self.pending_jobs

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "oldest_pending_job_age_seconds": oldest_pending_job_age_seconds,
                "pending_jobs": pending_jobs,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)

        def _parse_oldest_pending_job_age_seconds(data: object) -> int | None:
            if data is None:
                return data
            return cast(int | None, data)

        oldest_pending_job_age_seconds = _parse_oldest_pending_job_age_seconds(
            d.pop("oldest_pending_job_age_seconds")
        )

        pending_jobs = d.pop("pending_jobs")

        dashboard_current_push = cls(
            oldest_pending_job_age_seconds=oldest_pending_job_age_seconds,
            pending_jobs=pending_jobs,
        )

        return dashboard_current_push

"""The retained-history bound the dashboard and the health read report as ``coverage_start``."""

from __future__ import annotations

from datetime import datetime

from sqlalchemy import CheckConstraint
from sqlmodel import Field, SQLModel

from hub.sqltypes import tz_field


class RetentionCoverage(SQLModel, table=True):
    """One row: history from ``coverage_start`` on is complete; older rows may be partly swept.

    ``swept_at`` is null until the first sweep: nothing was deleted yet, and the readers report the
    retention horizon (or the stored bound, when older) instead of the stored install-time value.
    """

    __tablename__ = "retention_coverage"
    __table_args__ = (CheckConstraint("id = 1", name="ck_retention_coverage_single_row"),)

    id: int = Field(default=1, primary_key=True)
    coverage_start: datetime = tz_field(nullable=False)
    swept_at: datetime | None = tz_field()

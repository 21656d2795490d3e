"""Fixed-window request counters: one row per tenant and allowance group."""

from __future__ import annotations

from datetime import datetime

from sqlmodel import Field, SQLModel

from hub.sqltypes import tz_field


class RateLimitWindow(SQLModel, table=True):
    __tablename__ = "rate_limit_windows"

    tenant_id: str = Field(primary_key=True)
    allowance: str = Field(primary_key=True)
    window_start: datetime = tz_field(nullable=False)
    count: int = 0

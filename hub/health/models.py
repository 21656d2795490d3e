"""Per-subscription delivery health: last success and failure, auto-disable verdict."""

from __future__ import annotations

import uuid
from datetime import datetime

from sqlmodel import Field, SQLModel

from hub.sqltypes import tz_field


class SubscriptionHealthRow(SQLModel, table=True):
    __tablename__ = "subscription_health"

    subscription_id: uuid.UUID = Field(primary_key=True)
    tenant_id: str
    last_success_at: datetime | None = tz_field()
    last_failure_at: datetime | None = tz_field()
    failing_since: datetime | None = tz_field()
    consecutive_failures: int = 0
    auto_disabled: bool = False
    disabled_reason: str = ""
    updated_at: datetime = tz_field(nullable=False, default_now=True)

"""Recoveries: one row per ``POST /v1/subscriptions/{id}/recover``, its range and its progress."""

from __future__ import annotations

import uuid
from datetime import datetime
from enum import StrEnum

from sqlalchemy import Index
from sqlmodel import Field, SQLModel

from hub.ids import new_id
from hub.sqltypes import jsonb_field, tz_field


class RecoveryState(StrEnum):
    running = "running"  # batches remain
    completed = "completed"  # every matched job was looked at


class DeliveryRecovery(SQLModel, table=True):
    __tablename__ = "delivery_recoveries"
    __table_args__ = (Index("ix_delivery_recoveries_subscription", "subscription_id", "id"),)

    id: uuid.UUID = Field(default_factory=new_id, primary_key=True)
    tenant_id: str
    subscription_id: uuid.UUID
    since: datetime = tz_field(nullable=False)
    until: datetime = tz_field(nullable=False)  # the request's, or the recovery's creation when absent
    outcomes: list[str] | None = jsonb_field(nullable=False)  # failed | dead_lettered | disabled
    state: str = RecoveryState.running.value
    matched: int = 0  # jobs in the range that had one of the outcomes when the recovery was accepted
    requeued: int = 0  # jobs re-delivered so far (a new job, or a retry brought forward)
    skipped: int = 0  # matched jobs that no longer qualified when their batch ran (N50)
    cursor: uuid.UUID | None = None  # the last job id a batch looked at
    created_at: datetime = tz_field(nullable=False, default_now=True)
    updated_at: datetime = tz_field(nullable=False, default_now=True)
    completed_at: datetime | None = tz_field()

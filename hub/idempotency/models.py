"""Stored answers to mutations, keyed by (tenant, X-Idempotency key)."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from sqlalchemy import Column, LargeBinary
from sqlmodel import Field, SQLModel

from hub.sqltypes import jsonb_field, tz_field


class IdempotencyRecord(SQLModel, table=True):
    __tablename__ = "idempotency_records"

    tenant_id: str = Field(primary_key=True)
    key: str = Field(primary_key=True)
    fingerprint: str
    # "completed": the answer is stored; "started": a mutation may have committed unrecorded.
    state: str = "completed"
    status_code: int | None = None
    headers: dict[str, Any] | None = jsonb_field()
    body: bytes | None = Field(default=None, sa_column=Column(LargeBinary, nullable=True))
    created_at: datetime = tz_field(nullable=False, default_now=True)
    expires_at: datetime = tz_field(nullable=False, default_now=True, index=True)

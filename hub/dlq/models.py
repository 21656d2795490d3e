"""Dead-letter observations: one row per record seen on the dead-letter topic."""

from __future__ import annotations

import uuid
from datetime import datetime

from sqlalchemy import Index, UniqueConstraint
from sqlmodel import Field, SQLModel

from hub.ids import new_id
from hub.sqltypes import bigint_field, tz_field


class DLQObservation(SQLModel, table=True):
    __tablename__ = "dlq_observations"
    __table_args__ = (
        UniqueConstraint("dlq_topic", "dlq_partition", "dlq_offset", name="uq_dlq_observations_record"),
        Index("ix_dlq_observations_topic", "source_topic", "id"),
        Index("ix_dlq_observations_class", "error_class", "id"),
        Index("ix_dlq_observations_tenant_raw", "tenant_id_raw", "observed_at"),
    )

    id: uuid.UUID = Field(default_factory=new_id, primary_key=True)
    source_topic: str
    error_class: str
    error_message: str = ""
    retry_count: int = 0
    first_failure_at: datetime = tz_field(nullable=False, default_now=True)
    producer_id: str = ""
    observed_at: datetime = tz_field(nullable=False, default_now=True)
    # Untrusted, captured for forensics only; never used to authorize or scope.
    tenant_id_raw: str = ""
    # Where the observed record sits (revision 0003 added the topic: one deployment, one DLQ topic,
    # but several prefixes can share a database).
    dlq_topic: str = Field(default="", sa_column_kwargs={"server_default": ""})
    dlq_partition: int = 0
    dlq_offset: int = bigint_field(default=0)

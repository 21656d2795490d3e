"""Tables the ingestion workers keep besides the event log: pull eligibility and worker heartbeats."""

from __future__ import annotations

import uuid
from datetime import datetime

from sqlalchemy import ARRAY, Column, DateTime, Uuid
from sqlmodel import Field, SQLModel

from hub.sqltypes import bigint_field, tz_field


class PullEligibility(SQLModel, table=True):
    """Events that matched a given set of pull subscriptions, per tenant and UTC hour.

    Keyed on the whole (sorted) set of matching pull subscriptions, so a reader can count both
    distinct eligible events and subscription matches for the pull subscriptions that exist *now*
    (R-getDashboard-20): an event is eligible when its set meets the live set, and it contributes
    one match per live member of its set.
    """

    __tablename__ = "pull_eligibility_hourly"

    tenant_id: str = Field(primary_key=True)
    bucket_start: datetime = Field(sa_column=Column(DateTime(timezone=True), primary_key=True, nullable=False))
    subscription_ids: list[uuid.UUID] = Field(
        sa_column=Column(ARRAY(Uuid()), primary_key=True, nullable=False)
    )
    events: int = bigint_field(default=0, server_default="0")


class IngestWorkerHeartbeat(SQLModel, table=True):
    """One row per live ingestion worker process; ``/readyz`` reads the recent ones."""

    __tablename__ = "ingest_worker_heartbeats"

    worker_id: str = Field(primary_key=True)
    consumer_group: str
    topic_prefix: str
    state: str = "healthy"  # healthy | degraded
    detail: str = ""
    started_at: datetime = tz_field(nullable=False, default_now=True)
    heartbeat_at: datetime = tz_field(nullable=False, default_now=True)

"""The hourly count rollups, read by the dashboard and swept by retention, kept by PostgreSQL triggers.

Each row counts the rows of one raw table that fall in one UTC hour (``hour`` is its start), so a
reader can count whole hours from a handful of rows and only the partial first and last hour of a
period from the raw table. Jobs and attempts are counted per subscription (for a delegated
caller's subscriptions and the needs-attention list) and in total per tenant (for a tenant-wide
read, a few rows per hour however many subscriptions there are). Revision 0011 creates the
statement-level ``AFTER INSERT`` triggers that add every inserted batch in the same transaction
(whoever writes it: ingest, the delivery engine, a test), and backfills the rows that existed
before it. The retention sweep deletes
rollup rows older than its horizon together with the raw rows; nothing else deletes raw rows, so
every hour from ``coverage_start`` on is exact.
"""

from __future__ import annotations

import uuid
from datetime import datetime

from sqlalchemy import Column, DateTime, Index
from sqlmodel import Field, SQLModel

from hub.sqltypes import bigint_field, tz_field

# ``attempt_counts_hourly.subscription_id`` of attempts recorded without a subscription (``poison``).
NO_SUBSCRIPTION = uuid.UUID(int=0)


def _hour_key() -> datetime:
    return Field(sa_column=Column(DateTime(timezone=True), primary_key=True, nullable=False))


class EventCountHourly(SQLModel, table=True):
    """Events received (``event_log.received_at``) per tenant, hour and delegated party ('' for none)."""

    __tablename__ = "event_counts_hourly"

    tenant_id: str = Field(primary_key=True)
    hour: datetime = _hour_key()
    delegated_scope: str = Field(primary_key=True)
    events: int = bigint_field(default=0)


class JobCountHourly(SQLModel, table=True):
    """Delivery jobs created (``delivery_jobs.created_at``) per tenant, hour and subscription."""

    __tablename__ = "job_counts_hourly"

    tenant_id: str = Field(primary_key=True)
    hour: datetime = _hour_key()
    subscription_id: uuid.UUID = Field(primary_key=True)
    jobs: int = bigint_field(default=0)


class JobTotalHourly(SQLModel, table=True):
    """Delivery jobs created per tenant and hour, all subscriptions together (a tenant-wide read)."""

    __tablename__ = "job_totals_hourly"

    tenant_id: str = Field(primary_key=True)
    hour: datetime = _hour_key()
    jobs: int = bigint_field(default=0)


class AttemptTotalHourly(SQLModel, table=True):
    """Delivery attempts per tenant, hour and outcome, all subscriptions together (a tenant-wide read)."""

    __tablename__ = "attempt_totals_hourly"

    tenant_id: str = Field(primary_key=True)
    hour: datetime = _hour_key()
    outcome: str = Field(primary_key=True)
    attempts: int = bigint_field(default=0)


class AttemptCountHourly(SQLModel, table=True):
    """Delivery attempts (``delivery_attempts.attempted_at``) per tenant, hour, subscription and outcome,
    with the latest attempt of each (the needs-attention list's last success and failure)."""

    __tablename__ = "attempt_counts_hourly"
    __table_args__ = (Index("ix_attempt_counts_hourly_subscription", "subscription_id", "hour"),)

    tenant_id: str = Field(primary_key=True)
    hour: datetime = _hour_key()
    subscription_id: uuid.UUID = Field(primary_key=True)  # NO_SUBSCRIPTION for poison attempts
    outcome: str = Field(primary_key=True)
    attempts: int = bigint_field(default=0)
    last_attempted_at: datetime = tz_field(nullable=False)


# Every count rollup above, each keyed on its ``hour`` (retention sweeps them by it).
HOURLY_COUNTS = (EventCountHourly, JobCountHourly, JobTotalHourly, AttemptTotalHourly, AttemptCountHourly)

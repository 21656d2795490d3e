"""The tenant event log, delivery jobs, delivery attempts and pull cursors."""

from __future__ import annotations

import uuid
from datetime import datetime
from enum import IntEnum, StrEnum
from typing import Any

from sqlalchemy import BigInteger, Column, Index, UniqueConstraint, text
from sqlmodel import Field, SQLModel

from hub.ids import new_id
from hub.sqltypes import bigint_field, json_field, tz_field


class TenantCounter(SQLModel, table=True):
    """Per-tenant sequence high-water mark; taken once per ingest batch, never per event."""

    __tablename__ = "tenant_counters"

    tenant_id: str = Field(primary_key=True)
    last_seq: int = bigint_field(default=0)


class LoggedEvent(SQLModel, table=True):
    __tablename__ = "event_log"
    __table_args__ = (
        UniqueConstraint("tenant_id", "source", "ce_id", name="uq_event_log_dedup"),
        Index("ix_event_log_tenant_received", "tenant_id", "received_at"),
    )

    tenant_id: str = Field(primary_key=True)
    seq: int = bigint_field(primary_key=True)
    source: str
    ce_id: str
    event_type: str
    schema_version: str = "1.0.0"
    schema_major: int = 1
    delegated_scope: str | None = None
    partition_key: str | None = None
    event_time: datetime | None = tz_field()
    received_at: datetime = tz_field(nullable=False, default_now=True)
    attributes: dict[str, Any] | None = json_field()
    data: Any = json_field()
    kafka_topic: str = ""
    kafka_partition: int = 0
    kafka_offset: int = bigint_field(default=0)


class JobState(StrEnum):
    """Where a delivery job is: due for a try (``pending``, ``retrying``) or finished (the rest).

    A claimed job keeps its state; its lease (``lease_until``) is what marks it taken.
    """

    pending = "pending"  # not tried yet
    retrying = "retrying"  # tried, failed, a retry is scheduled
    delivered = "delivered"
    dead_lettered = "dead_lettered"  # retry budget spent, or a refusal that no retry can fix
    disabled = "disabled"  # subscription disabled, deleted, or never deliverable within the retry horizon
    waiting = "waiting"  # ordered (N77): an earlier job of its key is still open; not due until promoted


class JobPriority(IntEnum):
    """Which claims take a due job first (N58): an ordered key's head, then live jobs, then the bulk a
    recovery re-enqueues."""

    head = -1  # a live ordered job due again (retried, deferred) or handed its key's turn: at most one a key
    live = 0  # ingest's jobs, resends, and their retries
    bulk = 1  # a recovery's jobs: claimed only when no live job is due


DUE_JOB_STATES = (JobState.pending, JobState.retrying)
FINISHED_JOB_STATES = (JobState.delivered, JobState.dead_lettered, JobState.disabled)


def state_in(states: tuple[JobState, ...]) -> str:
    """The SQL condition "``state`` is one of ``states``" for literal statements, as ``state IN (...)`` with
    each state quoted (a partial index's predicate must be written the same way to be used)."""
    return "state IN (" + ", ".join(f"'{state.value}'" for state in states) + ")"


class DeliveryJob(SQLModel, table=True):
    __tablename__ = "delivery_jobs"
    __table_args__ = (
        # The fair claim's lanes (N98, revision 0024): the lanes with open work, one probe each, and a
        # lane's due jobs of one priority, earliest first, as one range scan.
        Index(
            "ix_delivery_jobs_lane",
            "tenant_id",
            "subscription_id",
            "priority",
            "next_attempt_at",
            postgresql_where=text(state_in(DUE_JOB_STATES)),
        ),
        # A subscription's jobs newest first: the delivery log's keyset (revision 0015, which dropped the
        # unique (subscription_id, tenant_id, event_seq): a resend is a second job for the same event).
        Index("ix_delivery_jobs_subscription_id", "subscription_id", "id"),
        # The dashboard's backlog and jobs-created counts (revision 0010).
        Index("ix_delivery_jobs_tenant_state_created", "tenant_id", "state", "created_at"),
        # An ordered key's next job, in event order (revision 0022, N77).
        Index("ix_delivery_jobs_waiting", "subscription_id", "ordering_key", "event_seq",
              postgresql_where=text(state_in((JobState.waiting,)))),
    )

    id: uuid.UUID = Field(default_factory=new_id, primary_key=True)
    tenant_id: str
    subscription_id: uuid.UUID
    event_seq: int = Field(sa_column=Column(BigInteger, nullable=False))
    state: str = JobState.pending.value  # a JobState
    attempts: int = 0
    next_attempt_at: datetime = tz_field(nullable=False, default_now=True)
    lease_until: datetime | None = tz_field()
    last_error_class: str = ""
    created_at: datetime = tz_field(nullable=False, default_now=True)
    updated_at: datetime = tz_field(nullable=False, default_now=True)
    priority: int = Field(default=JobPriority.live.value, sa_column_kwargs={"server_default": "0"})  # a JobPriority
    ordering_key: str | None = None  # an ordered subscription's key value (N77); None: unordered


class OrderedKey(SQLModel, table=True):
    """An ordered subscription's key with an open job (N77): its head, the one job of the key that may be
    due, and whether the head's dead-letter blocked it. The row is the key's lock: ingest and every
    settle that ends a head take it, in (subscription, key) order."""

    __tablename__ = "ordered_keys"
    __table_args__ = (
        Index("ix_ordered_keys_blocked", "subscription_id", "blocked_at",
              postgresql_where=text("blocked_at IS NOT NULL")),
    )

    subscription_id: uuid.UUID = Field(primary_key=True)
    ordering_key: str = Field(primary_key=True)
    tenant_id: str
    head_job_id: uuid.UUID
    head_since: datetime = tz_field(nullable=False, default_now=True)
    blocked_at: datetime | None = tz_field()


class DeliveryAttempt(SQLModel, table=True):
    __tablename__ = "delivery_attempts"
    __table_args__ = (
        Index("ix_delivery_attempts_sub_time", "subscription_id", "attempted_at"),
        # One job's attempts, for the delivery log (revision 0015); pull's job-less rows stay out.
        Index("ix_delivery_attempts_job", "job_id", postgresql_where=text("job_id IS NOT NULL")),
        # Covering: the dashboard's attempt counts are index-only scans (revision 0010).
        Index("ix_delivery_attempts_tenant_time", "tenant_id", "attempted_at",
              postgresql_include=["outcome", "subscription_id"]),
    )

    id: uuid.UUID = Field(default_factory=new_id, primary_key=True)
    job_id: uuid.UUID | None = None
    tenant_id: str
    subscription_id: uuid.UUID | None = None
    sink_kind: str = ""
    # delivered | failed | dead_lettered | disabled | available | poison (docs/contract-notes.md N23)
    event_seq: int | None = Field(default=None, sa_column=Column(BigInteger, nullable=True))
    attempt_no: int = Field(default=0, sa_column_kwargs={"server_default": "0"})
    outcome: str
    status_code: int = 0
    error_class: str = ""  # an ErrorClass value (hub/sinks/vocabulary.py), "" on success
    detail: str = Field(default="", sa_column_kwargs={"server_default": ""})  # sanitized; never a secret
    latency_ms: int = 0
    attempted_at: datetime = tz_field(nullable=False, default_now=True)


class PullCursor(SQLModel, table=True):
    __tablename__ = "pull_cursors"

    subscription_id: uuid.UUID = Field(primary_key=True)
    tenant_id: str
    acked_seq: int = bigint_field(default=0)
    updated_at: datetime = tz_field(nullable=False, default_now=True)


class DeliveryPacing(SQLModel, table=True):
    """A rate-limited subscription's next free send slot and the end of its refusals' queue, shared by
    every ``hub deliver`` (N56, N58).

    One row per subscription that has a ``rate_limit_per_second``, written only by the engine's claim
    (under a row lock) and never read by the API.
    """

    __tablename__ = "delivery_pacing"

    subscription_id: uuid.UUID = Field(primary_key=True)
    next_slot: datetime = tz_field(nullable=False, default_now=True)
    waiting_until: datetime | None = tz_field()  # the end of the refused jobs' queue of slots (N58)

"""The broker's tables: the history projection of broker events, and the retention configs."""

from __future__ import annotations

from datetime import datetime

from sqlalchemy import BigInteger, CheckConstraint, Column, Index, String
from sqlmodel import Field, SQLModel

from hub.sqltypes import bigint_field, tz_field


class BrokerEvent(SQLModel, table=True):
    """One broker event of the event log, indexed for history by (tenant, Main Topic, ts).

    Written by ingest in the transaction that stores the event (a row only for broker events);
    the event itself (id, data) stays in ``event_log``, and deleting it there deletes this row (a
    statement trigger on ``event_log``, migration 0023: no foreign key, whose per-row check cost more
    than the row).
    """

    __tablename__ = "broker_events"
    __table_args__ = (
        Index("ix_broker_events_history", "tenant_id", "main_topic", "ts", "seq",
              postgresql_include=["topic", "event_type"]),
        # A sub-topic's subtree is one range of this index: the topic itself, and ['T:', 'T;') in C order.
        Index("ix_broker_events_topic", "tenant_id", "topic", "ts", "seq"),
    )

    tenant_id: str = Field(primary_key=True)
    seq: int = bigint_field(primary_key=True)
    main_topic: str
    topic: str = Field(sa_column=Column(String(collation="C"), nullable=False))  # byte order: ranges by prefix
    event_type: str
    ts: int = Field(sa_column=Column(BigInteger, nullable=False))  # milliseconds since the epoch


class BrokerTopicConfig(SQLModel, table=True):
    """The stored history window of one Main Topic (a null bound is unbounded)."""

    __tablename__ = "broker_topic_configs"
    __table_args__ = (
        CheckConstraint("max_events IS NULL OR max_events > 0", name="ck_broker_topic_configs_max_events"),
        CheckConstraint("ttl_seconds IS NULL OR ttl_seconds > 0", name="ck_broker_topic_configs_ttl"),
    )

    tenant_id: str = Field(primary_key=True)
    topic: str = Field(primary_key=True)
    max_events: int | None = Field(default=None, sa_column=Column(BigInteger, nullable=True))
    ttl_seconds: int | None = Field(default=None, sa_column=Column(BigInteger, nullable=True))
    inserted_at: datetime = tz_field(nullable=False, default_now=True)
    updated_at: datetime = tz_field(nullable=False, default_now=True)

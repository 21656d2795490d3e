"""The consumer service's tables: the queues tenants own, and the relay's place in each event log."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from sqlmodel import Field, SQLModel

from hub.sqltypes import bigint_field, jsonb_field, tz_field


class ConsumerQueue(SQLModel, table=True):
    """A consumer queue on RabbitMQ: who owns it (E2), its kind, and the filter groups it is bound by.

    ``last_attached_at`` is when a consumer was last seen on it; the idle sweep deletes a durable
    queue that has had none for the idle window (the broker's own ``x-expires`` would also count a
    re-declare as use, which the seed says must not keep a queue alive).
    """

    __tablename__ = "consumer_queues"

    queue_id: str = Field(primary_key=True)
    tenant_id: str = Field(index=True)
    durable: bool
    filter_groups: Any = jsonb_field(nullable=False)
    created_at: datetime = tz_field(nullable=False, default_now=True)
    last_attached_at: datetime = tz_field(nullable=False, default_now=True)


class ConsumerRelayCursor(SQLModel, table=True):
    """The last event-log seq of a tenant that the relay has published to the tenant's exchange."""

    __tablename__ = "consumer_relay_cursors"

    tenant_id: str = Field(primary_key=True)
    last_seq: int = bigint_field(default=0)


class ConsumerQueueHold(SQLModel, table=True):
    """How many deliveries one open stream holds unacknowledged on a queue (N76).

    AMQP's passive declare reports ready messages and consumers, never unacknowledged ones (that count
    is the management plugin's), so each stream reports its own: a row per stream while it holds any,
    rewritten when the count changes (at most once a second) and every ``HEARTBEAT`` seconds while it
    holds some; a row not rewritten for ``STALE`` seconds belonged to a process that died and is ignored.
    """

    __tablename__ = "consumer_queue_holds"

    queue_id: str = Field(primary_key=True)
    holder: str = Field(primary_key=True)
    unacked: int = Field(nullable=False)
    seen_at: datetime = tz_field(nullable=False, default_now=True)

"""The event broker (seed 003): the history projection ``broker_events`` and ``broker_topic_configs``.

``broker_events`` holds one row per broker event of the event log (source ``event-broker``),
written by ingest in the event's own transaction, keyed like the event log and deleted with it
(ON DELETE CASCADE). History of a Main Topic reads one index range, (tenant, Main Topic, ts,
seq), with the topic and type included so the filters are read from the index; a sub-topic's
subtree is a range of (tenant, topic, ts, seq), the topic in C (byte) order.

Revision ID: 0013
Revises: 0012
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0013"
down_revision = "0012"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "broker_events",
        sa.Column("tenant_id", sa.String(), nullable=False),
        sa.Column("seq", sa.BigInteger(), autoincrement=False, nullable=False),
        sa.Column("main_topic", sa.String(), nullable=False),
        sa.Column("topic", sa.String(collation="C"), nullable=False),
        sa.Column("event_type", sa.String(), nullable=False),
        sa.Column("ts", sa.BigInteger(), nullable=False),
        sa.ForeignKeyConstraint(["tenant_id", "seq"], ["event_log.tenant_id", "event_log.seq"],
                                name="fk_broker_events_event_log", ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("tenant_id", "seq"),
    )
    op.create_index("ix_broker_events_history", "broker_events", ["tenant_id", "main_topic", "ts", "seq"],
                    postgresql_include=["topic", "event_type"])
    op.create_index("ix_broker_events_topic", "broker_events", ["tenant_id", "topic", "ts", "seq"])
    op.create_table(
        "broker_topic_configs",
        sa.Column("tenant_id", sa.String(), nullable=False),
        sa.Column("topic", sa.String(), nullable=False),
        sa.Column("max_events", sa.BigInteger(), nullable=True),
        sa.Column("ttl_seconds", sa.BigInteger(), nullable=True),
        sa.Column("inserted_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("updated_at", sa.DateTime(timezone=True), nullable=False),
        sa.CheckConstraint("max_events IS NULL OR max_events > 0", name="ck_broker_topic_configs_max_events"),
        sa.CheckConstraint("ttl_seconds IS NULL OR ttl_seconds > 0", name="ck_broker_topic_configs_ttl"),
        sa.PrimaryKeyConstraint("tenant_id", "topic"),
    )


def downgrade() -> None:
    op.drop_table("broker_topic_configs")
    op.drop_index("ix_broker_events_topic", table_name="broker_events")
    op.drop_index("ix_broker_events_history", table_name="broker_events")
    op.drop_table("broker_events")

"""Ingestion: pull eligibility buckets, worker heartbeats, the DLQ topic in observations.

Revision ID: 0003
Revises: 0001
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op
from sqlalchemy.dialects import postgresql

revision = "0003"
down_revision = "0001"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "pull_eligibility_hourly",
        sa.Column("tenant_id", sa.String(), nullable=False),
        sa.Column("bucket_start", sa.DateTime(timezone=True), nullable=False),
        sa.Column("subscription_ids", postgresql.ARRAY(sa.Uuid()), nullable=False),
        sa.Column("events", sa.BigInteger(), nullable=False, server_default="0"),
        sa.PrimaryKeyConstraint("tenant_id", "bucket_start", "subscription_ids"),
    )
    op.create_table(
        "ingest_worker_heartbeats",
        sa.Column("worker_id", sa.String(), nullable=False),
        sa.Column("consumer_group", sa.String(), nullable=False),
        sa.Column("topic_prefix", sa.String(), nullable=False),
        sa.Column("state", sa.String(), nullable=False),
        sa.Column("detail", sa.String(), nullable=False),
        sa.Column("started_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("heartbeat_at", sa.DateTime(timezone=True), nullable=False),
        sa.PrimaryKeyConstraint("worker_id"),
    )
    op.add_column("dlq_observations", sa.Column("dlq_topic", sa.String(), nullable=False, server_default=""))
    op.drop_constraint("uq_dlq_observations_record", "dlq_observations", type_="unique")
    op.create_unique_constraint(
        "uq_dlq_observations_record", "dlq_observations", ["dlq_topic", "dlq_partition", "dlq_offset"]
    )


def downgrade() -> None:
    op.drop_constraint("uq_dlq_observations_record", "dlq_observations", type_="unique")
    op.create_unique_constraint("uq_dlq_observations_record", "dlq_observations", ["dlq_partition", "dlq_offset"])
    op.drop_column("dlq_observations", "dlq_topic")
    op.drop_table("ingest_worker_heartbeats")
    op.drop_table("pull_eligibility_hourly")

"""The consumer service (seed 000): ``consumer_queues`` and the relay's ``consumer_relay_cursors``.

Revision ID: 0014
Revises: 0013
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op
from sqlalchemy.dialects import postgresql

revision = "0014"
down_revision = "0013"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "consumer_queues",
        sa.Column("queue_id", sa.String(), nullable=False),
        sa.Column("tenant_id", sa.String(), nullable=False),
        sa.Column("durable", sa.Boolean(), nullable=False),
        sa.Column("filter_groups", postgresql.JSONB(), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("last_attached_at", sa.DateTime(timezone=True), nullable=False),
        sa.PrimaryKeyConstraint("queue_id"),
    )
    op.create_index("ix_consumer_queues_tenant_id", "consumer_queues", ["tenant_id"])
    op.create_table(
        "consumer_relay_cursors",
        sa.Column("tenant_id", sa.String(), nullable=False),
        sa.Column("last_seq", sa.BigInteger(), nullable=False),
        sa.PrimaryKeyConstraint("tenant_id"),
    )


def downgrade() -> None:
    op.drop_table("consumer_relay_cursors")
    op.drop_index("ix_consumer_queues_tenant_id", table_name="consumer_queues")
    op.drop_table("consumer_queues")

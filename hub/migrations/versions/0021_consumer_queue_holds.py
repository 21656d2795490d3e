"""What each consumer stream holds unacknowledged (N76): ``consumer_queue_holds``.

Revision ID: 0021
Revises: 0020
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0021"
down_revision = "0020"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "consumer_queue_holds",
        sa.Column("queue_id", sa.String(), nullable=False),
        sa.Column("holder", sa.String(), nullable=False),
        sa.Column("unacked", sa.Integer(), nullable=False),
        sa.Column("seen_at", sa.DateTime(timezone=True), nullable=False),
        sa.PrimaryKeyConstraint("queue_id", "holder"),
    )


def downgrade() -> None:
    op.drop_table("consumer_queue_holds")

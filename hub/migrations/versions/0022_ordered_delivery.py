"""Ordered delivery per key (N77): a subscription's ``ordering`` option, a job's ``ordering_key``, the
``waiting`` state and the ``ordered_keys`` heads.

A job of an ordered subscription whose key already has an open head is stored ``waiting`` (not due, so
the claim's range scan never sees it); the head's end promotes the next one, in event order, under the
key row's lock. ``ix_delivery_jobs_waiting`` finds that next one; ``ix_ordered_keys_blocked`` lists a
subscription's blocked keys.

Revision ID: 0022
Revises: 0021
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op
from sqlalchemy.dialects.postgresql import JSONB

revision = "0022"
down_revision = "0021"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.add_column("subscriptions", sa.Column("ordering", JSONB(none_as_null=True), nullable=True))
    op.add_column("delivery_jobs", sa.Column("ordering_key", sa.String(), nullable=True))
    op.create_index("ix_delivery_jobs_waiting", "delivery_jobs", ["subscription_id", "ordering_key", "event_seq"],
                    postgresql_where=sa.text("state IN ('waiting')"))
    op.create_table(
        "ordered_keys",
        sa.Column("subscription_id", sa.Uuid(), nullable=False),
        sa.Column("ordering_key", sa.String(), nullable=False),
        sa.Column("tenant_id", sa.String(), nullable=False),
        sa.Column("head_job_id", sa.Uuid(), nullable=False),
        sa.Column("head_since", sa.DateTime(timezone=True), nullable=False),
        sa.Column("blocked_at", sa.DateTime(timezone=True), nullable=True),
        sa.PrimaryKeyConstraint("subscription_id", "ordering_key"),
    )
    op.create_index("ix_ordered_keys_blocked", "ordered_keys", ["subscription_id", "blocked_at"],
                    postgresql_where=sa.text("blocked_at IS NOT NULL"))


def downgrade() -> None:
    op.drop_index("ix_ordered_keys_blocked", table_name="ordered_keys")
    op.drop_table("ordered_keys")
    op.drop_index("ix_delivery_jobs_waiting", table_name="delivery_jobs")
    op.drop_column("delivery_jobs", "ordering_key")
    op.drop_column("subscriptions", "ordering")

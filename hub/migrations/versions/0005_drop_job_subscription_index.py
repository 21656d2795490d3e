"""Drop ``ix_delivery_jobs_subscription``: the unique (subscription_id, tenant_id, event_seq) covers it.

A subscription belongs to one tenant, so within a subscription the unique index is ordered by
event seq, which is the order jobs are created in. The extra index cost a fourth b-tree insert
for every job the ingest fan-out writes (ten per event with ten matching subscriptions).

Revision ID: 0005
Revises: 0004
"""

from __future__ import annotations

from alembic import op

revision = "0005"
down_revision = "0004"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.drop_index("ix_delivery_jobs_subscription", table_name="delivery_jobs")


def downgrade() -> None:
    op.create_index("ix_delivery_jobs_subscription", "delivery_jobs", ["subscription_id", "created_at"])

"""The delivery log, resend and recover: a subscription's jobs by id, one job's attempts, recoveries.

``ix_delivery_jobs_subscription_id`` (subscription_id, id) is the delivery log's keyset: a page of
one subscription's jobs newest first is one backward index range, whatever the subscription's size.
It replaces the unique (subscription_id, tenant_id, event_seq): a resend or a recovery writes a
second job for the same event (docs/contract-notes.md N47), and a subscription belongs to one tenant,
so the new index serves every lookup by subscription the old one did. Ingest still writes one b-tree
entry per job for it, as before.

``ix_delivery_attempts_job`` finds one job's attempts; pull's ``available`` attempts (no job) are
left out of it. ``delivery_recoveries`` holds each recovery's range and progress.

Revision ID: 0015
Revises: 0014
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op
from sqlalchemy.dialects import postgresql

revision = "0015"
down_revision = "0014"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_index("ix_delivery_jobs_subscription_id", "delivery_jobs", ["subscription_id", "id"])
    op.drop_constraint("uq_delivery_jobs_event", "delivery_jobs", type_="unique")
    op.create_index("ix_delivery_attempts_job", "delivery_attempts", ["job_id"],
                    postgresql_where=sa.text("job_id IS NOT NULL"))
    op.create_table(
        "delivery_recoveries",
        sa.Column("id", sa.Uuid(), nullable=False),
        sa.Column("tenant_id", sa.String(), nullable=False),
        sa.Column("subscription_id", sa.Uuid(), nullable=False),
        sa.Column("since", sa.DateTime(timezone=True), nullable=False),
        sa.Column("until", sa.DateTime(timezone=True), nullable=False),
        sa.Column("outcomes", postgresql.JSONB(), nullable=False),
        sa.Column("state", sa.String(), nullable=False),
        sa.Column("matched", sa.Integer(), nullable=False),
        sa.Column("requeued", sa.Integer(), nullable=False),
        sa.Column("skipped", sa.Integer(), nullable=False),
        sa.Column("cursor", sa.Uuid(), nullable=True),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("updated_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("completed_at", sa.DateTime(timezone=True), nullable=True),
        sa.PrimaryKeyConstraint("id"),
    )
    op.create_index("ix_delivery_recoveries_subscription", "delivery_recoveries", ["subscription_id", "id"])


def downgrade() -> None:
    op.drop_index("ix_delivery_recoveries_subscription", table_name="delivery_recoveries")
    op.drop_table("delivery_recoveries")
    op.drop_index("ix_delivery_attempts_job", table_name="delivery_attempts")
    op.create_unique_constraint("uq_delivery_jobs_event", "delivery_jobs",
                                ["subscription_id", "tenant_id", "event_seq"])
    op.drop_index("ix_delivery_jobs_subscription_id", table_name="delivery_jobs")

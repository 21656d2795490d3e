"""Retention coverage and the dashboard's job index.

``retention_coverage`` holds one row: the earliest instant from which the event log, the delivery
jobs and the delivery attempts are complete. This revision stores the oldest row already stored
(or now, on an empty database), with ``swept_at`` null. Until the first sweep nothing has been
deleted, so the readers report the earlier of that value and the retention horizon (now minus the
retention window): on a fresh install, the horizon. The first sweep sets it to its horizon, later
ones move it forward, each before deleting anything older (hub/retention/service.py).

``ix_delivery_jobs_tenant_state_created`` serves the dashboard's push backlog (a tenant's pending
and retrying jobs, oldest first) and its jobs-created counts (one index range per state).
``ix_delivery_attempts_tenant_time`` gains ``outcome`` and ``subscription_id`` as included columns,
so the dashboard's attempt counts are index-only scans.

Revision ID: 0010
Revises: 0006
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0010"
down_revision = "0006"
branch_labels = None
depends_on = None

OLDEST_RETAINED = """
INSERT INTO retention_coverage (id, coverage_start, swept_at)
SELECT 1, LEAST(now(),
                (SELECT min(received_at) FROM event_log),
                (SELECT min(created_at) FROM delivery_jobs),
                (SELECT min(attempted_at) FROM delivery_attempts)), NULL
"""


def upgrade() -> None:
    op.create_table(
        "retention_coverage",
        sa.Column("id", sa.Integer(), primary_key=True),
        sa.Column("coverage_start", sa.DateTime(timezone=True), nullable=False),
        sa.Column("swept_at", sa.DateTime(timezone=True), nullable=True),
        sa.CheckConstraint("id = 1", name="ck_retention_coverage_single_row"),
    )
    op.execute(OLDEST_RETAINED)
    op.create_index("ix_delivery_jobs_tenant_state_created", "delivery_jobs",
                    ["tenant_id", "state", "created_at"])
    op.drop_index("ix_delivery_attempts_tenant_time", table_name="delivery_attempts")
    op.create_index("ix_delivery_attempts_tenant_time", "delivery_attempts", ["tenant_id", "attempted_at"],
                    postgresql_include=["outcome", "subscription_id"])


def downgrade() -> None:
    op.drop_index("ix_delivery_attempts_tenant_time", table_name="delivery_attempts")
    op.create_index("ix_delivery_attempts_tenant_time", "delivery_attempts", ["tenant_id", "attempted_at"])
    op.drop_index("ix_delivery_jobs_tenant_state_created", table_name="delivery_jobs")
    op.drop_table("retention_coverage")

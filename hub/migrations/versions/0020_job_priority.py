"""Live jobs are claimed before a recovery's (N58): ``delivery_jobs.priority`` and the due index by it.

A small integer with a server default of 0 (live; adding it rewrites no row on PostgreSQL 11+), and
the claim's partial index ``ix_delivery_jobs_due`` rebuilt on ``(priority, next_attempt_at)`` so each
priority's due jobs are one range scan, earliest first.

Revision ID: 0020
Revises: 0019
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0020"
down_revision = "0019"
branch_labels = None
depends_on = None

DUE = sa.text("state IN ('pending', 'retrying')")


def upgrade() -> None:
    op.add_column("delivery_jobs", sa.Column("priority", sa.Integer(), server_default="0", nullable=False))
    op.drop_index("ix_delivery_jobs_due", table_name="delivery_jobs")
    op.create_index("ix_delivery_jobs_due", "delivery_jobs", ["priority", "next_attempt_at"], postgresql_where=DUE)


def downgrade() -> None:
    op.drop_index("ix_delivery_jobs_due", table_name="delivery_jobs")
    op.create_index("ix_delivery_jobs_due", "delivery_jobs", ["next_attempt_at"], postgresql_where=DUE)
    op.drop_column("delivery_jobs", "priority")

"""Fair claims (N98): the due index by lane, ``(tenant_id, subscription_id, priority, next_attempt_at)``.

The claim no longer takes due jobs in one due-time order across every tenant; it visits lanes (a tenant's
subscription) in turn and takes each lane's share, each lane's due jobs of one priority being one range
scan, earliest first. The index is also how the claim lists the lanes with open work: a loose index scan,
one probe a lane. It replaces ``ix_delivery_jobs_due`` (revision 0020), which no statement reads any more.

Revision ID: 0024
Revises: 0023
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0024"
down_revision = "0023"
branch_labels = None
depends_on = None

DUE = sa.text("state IN ('pending', 'retrying')")


def upgrade() -> None:
    op.create_index("ix_delivery_jobs_lane", "delivery_jobs",
                    ["tenant_id", "subscription_id", "priority", "next_attempt_at"], postgresql_where=DUE)
    op.drop_index("ix_delivery_jobs_due", table_name="delivery_jobs")


def downgrade() -> None:
    op.create_index("ix_delivery_jobs_due", "delivery_jobs", ["priority", "next_attempt_at"], postgresql_where=DUE)
    op.drop_index("ix_delivery_jobs_lane", table_name="delivery_jobs")

"""Index ``attempt_counts_hourly`` by (subscription, hour) for the subscription health read.

The health rollup of one subscription counts its attempts over up to 30 days. The rollup's primary
key leads with the tenant, so one subscription's hours would be found by reading every
subscription of the tenant in the window; this index reads only that subscription's rows. Upserts
into an existing (tenant, hour, subscription, outcome) row change only non-indexed columns, so the
index grows by one entry per new row, not per attempt.

Revision ID: 0012
Revises: 0011
"""

from __future__ import annotations

from alembic import op

revision = "0012"
down_revision = "0011"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_index("ix_attempt_counts_hourly_subscription", "attempt_counts_hourly", ["subscription_id", "hour"])


def downgrade() -> None:
    op.drop_index("ix_attempt_counts_hourly_subscription", table_name="attempt_counts_hourly")

"""Rate limits per destination (N56): ``subscriptions.rate_limit_per_second`` and ``delivery_pacing``.

A nullable integer column (NULL: no limit; adding it rewrites no row), and one small table holding,
per limited subscription, the next instant a delivery to it may go out, which every ``hub deliver``
process advances under a row lock when it claims that subscription's jobs.

Revision ID: 0018
Revises: 0017
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0018"
down_revision = "0017"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.add_column("subscriptions", sa.Column("rate_limit_per_second", sa.Integer(), nullable=True))
    op.create_table(
        "delivery_pacing",
        sa.Column("subscription_id", sa.Uuid(), nullable=False),
        sa.Column("next_slot", sa.DateTime(timezone=True), nullable=False),
        sa.PrimaryKeyConstraint("subscription_id"),
    )


def downgrade() -> None:
    op.drop_table("delivery_pacing")
    op.drop_column("subscriptions", "rate_limit_per_second")

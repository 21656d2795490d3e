"""Refusals queue behind each other (N58): ``delivery_pacing.waiting_until``.

A nullable timestamp (NULL: no refused job is waiting; adding it rewrites no row): the end of the
queue of send slots already promised to jobs a claim refused, which the next refusals follow.

Revision ID: 0019
Revises: 0018
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0019"
down_revision = "0018"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.add_column("delivery_pacing", sa.Column("waiting_until", sa.DateTime(timezone=True), nullable=True))


def downgrade() -> None:
    op.drop_column("delivery_pacing", "waiting_until")

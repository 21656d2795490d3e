"""Delivery attempts carry their try number, the event they tried and a sanitized detail.

Revision ID: 0006
Revises: 0005
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0006"
down_revision = "0005"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.add_column("delivery_attempts", sa.Column("attempt_no", sa.Integer(), nullable=False, server_default="0"))
    op.add_column("delivery_attempts", sa.Column("event_seq", sa.BigInteger(), nullable=True))
    op.add_column("delivery_attempts", sa.Column("detail", sa.String(), nullable=False, server_default=""))


def downgrade() -> None:
    op.drop_column("delivery_attempts", "detail")
    op.drop_column("delivery_attempts", "event_seq")
    op.drop_column("delivery_attempts", "attempt_no")

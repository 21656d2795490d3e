"""Payload filters: ``subscriptions.payload_filter``, the filter a subscription's events must match (N53).

A nullable JSONB column (NULL: no filter), read by ingest with the rest of the subscription cache;
adding it rewrites no row.

Revision ID: 0016
Revises: 0015
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op
from sqlalchemy.dialects import postgresql

revision = "0016"
down_revision = "0015"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.add_column("subscriptions", sa.Column("payload_filter", postgresql.JSONB(none_as_null=True), nullable=True))


def downgrade() -> None:
    op.drop_column("subscriptions", "payload_filter")

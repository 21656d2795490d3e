"""Custom headers per destination: ``subscriptions.custom_headers``, a webhook's static headers (N54).

A nullable JSONB column (NULL: none) holding ``[{name, secret, value | sealed}]``; a secret header's
value is stored only as a ``hub.secrets`` envelope. Adding it rewrites no row.

Revision ID: 0017
Revises: 0016
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op
from sqlalchemy.dialects import postgresql

revision = "0017"
down_revision = "0016"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.add_column("subscriptions", sa.Column("custom_headers", postgresql.JSONB(none_as_null=True), nullable=True))


def downgrade() -> None:
    op.drop_column("subscriptions", "custom_headers")

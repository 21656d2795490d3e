"""Event log payloads as ``json``: the producer's bytes are kept as sent.

``jsonb`` re-encodes a document (keys sorted and deduplicated, numbers normalised), so a
subscriber would not receive what the producer published, and parsing into it is the largest
per-row cost of the ingest COPY. ``json`` stores the validated text unchanged.

Revision ID: 0004
Revises: 0003
"""

from __future__ import annotations

from alembic import op

revision = "0004"
down_revision = "0003"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.execute("ALTER TABLE event_log ALTER COLUMN attributes TYPE json USING attributes::text::json, "
               "ALTER COLUMN data TYPE json USING data::text::json")


def downgrade() -> None:
    op.execute("ALTER TABLE event_log ALTER COLUMN attributes TYPE jsonb USING attributes::jsonb, "
               "ALTER COLUMN data TYPE jsonb USING data::jsonb")

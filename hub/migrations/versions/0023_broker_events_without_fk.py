"""The broker's history projection without a foreign key to the event log (issue 39).

Ingest writes a ``broker_events`` row in the transaction that stores its event, so the row can never
point at an event that is not there. The foreign key checked it again for every row, one query each
that also locked the event's row: a plan that ingest's connection keeps for as long as it lives, and
one made while the log was small scans the whole log (a seq scan per broker event, 3 ms each at 30,000
rows). What the key's ``ON DELETE CASCADE`` did, a statement trigger now does: every statement deleting
from ``event_log`` (retention, the broker's purge and sweep) deletes the projection rows of the events it
removed, in one join per statement.

Revision ID: 0023
Revises: 0022
"""

from __future__ import annotations

from alembic import op

revision = "0023"
down_revision = "0022"
branch_labels = None
depends_on = None

FOLLOW = "broker_events_follow_log"


def upgrade() -> None:
    op.drop_constraint("fk_broker_events_event_log", "broker_events", type_="foreignkey")
    op.execute(f"""
CREATE FUNCTION {FOLLOW}() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  DELETE FROM broker_events b USING gone g WHERE b.tenant_id = g.tenant_id AND b.seq = g.seq;
  RETURN NULL;
END $$""")
    op.execute(f"CREATE TRIGGER {FOLLOW} AFTER DELETE ON event_log REFERENCING OLD TABLE AS gone"
               f" FOR EACH STATEMENT EXECUTE FUNCTION {FOLLOW}()")


def downgrade() -> None:
    op.execute(f"DROP TRIGGER {FOLLOW} ON event_log")
    op.execute(f"DROP FUNCTION {FOLLOW}()")
    op.execute("DELETE FROM broker_events b WHERE NOT EXISTS "
               "(SELECT 1 FROM event_log e WHERE e.tenant_id = b.tenant_id AND e.seq = b.seq)")
    op.create_foreign_key("fk_broker_events_event_log", "broker_events", "event_log", ["tenant_id", "seq"],
                          ["tenant_id", "seq"], ondelete="CASCADE")

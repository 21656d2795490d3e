"""The subscription change counter: workers that cache subscriptions reload when it moves.

Every write that changes what a worker caches moves it, in the transaction of the change.
"""

from __future__ import annotations

from sqlalchemy import text
from sqlmodel import Session

from hub.subscription.models import SubscriptionVersion

_TABLE = SubscriptionVersion.__tablename__  # one row, id 1
BUMP_VERSION_SQL = f"UPDATE {_TABLE} SET version = version + 1 WHERE id = 1"
READ_VERSION_SQL = f"SELECT version FROM {_TABLE} WHERE id = 1"


def bump_version(session: Session) -> None:
    """Move the counter in the caller's transaction (the change is seen once it commits)."""
    session.execute(text(BUMP_VERSION_SQL))

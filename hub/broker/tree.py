"""A domain's topic tree (N76): each topic that holds stored events, with its count and newest ``ts``,
in byte order (so a Main Topic comes right before its sub-topics), paged by the last topic seen.

The seed has no such route; the console needs one to show what a domain holds. Rows are the stored
events: an event past its window counts until the sweep removes it.
"""

from __future__ import annotations

from typing import Any

from sqlalchemy import text
from sqlmodel import Session

MAX_LIMIT, DEFAULT_LIMIT = 1000, 100
TREE_SQL = text("""
    SELECT topic, count(*), max(ts) FROM broker_events
     WHERE tenant_id = :tenant AND topic > :after
     GROUP BY topic ORDER BY topic LIMIT :limit""")


def topic_tree(session: Session, *, tenant_id: str, after: str, limit: int) -> tuple[list[dict[str, Any]], str | None]:
    """One page of (topic, events, latest_ts) and the cursor of the next page (None on the last)."""
    rows = session.execute(TREE_SQL, {"tenant": tenant_id, "after": after, "limit": limit + 1}).all()
    more = len(rows) > limit
    rows = rows[:limit]
    items = [{"topic": topic, "main": topic.split(":", 1)[0], "events": int(count), "latest_ts": int(latest)}
             for topic, count, latest in rows]
    return items, rows[-1][0] if more else None

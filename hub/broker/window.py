"""The effective history window of a Main Topic (E8): its stored config, or the system default.

History shows exactly the window at read time: events younger than ``ttl_seconds`` and among the
newest ``max_events`` of the Main Topic. Both bounds become one inclusive lower bound on
(ts, seq), which the history index reads directly; the sweep deletes what lies below it.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from sqlalchemy import text
from sqlmodel import Session

from hub.broker.models import BrokerTopicConfig

DEFAULT_MAX_EVENTS, DEFAULT_TTL_SECONDS = 1000, 3600
NO_FLOOR = (-(2**63), 0)

NTH_NEWEST_SQL = text("""
SELECT ts, seq FROM broker_events WHERE tenant_id = :tenant AND main_topic = :main
 ORDER BY ts DESC, seq DESC OFFSET :skip LIMIT 1
""")


@dataclass(frozen=True, slots=True)
class Window:
    """A Main Topic's bounds (None: unbounded); ``default`` when no config is stored."""

    topic: str
    max_events: int | None
    ttl_seconds: int | None
    default: bool
    inserted_at: datetime | None = None
    updated_at: datetime | None = None


def default_window(topic: str) -> Window:
    return Window(topic, DEFAULT_MAX_EVENTS, DEFAULT_TTL_SECONDS, True)


def stored_window(config: BrokerTopicConfig) -> Window:
    return Window(config.topic, config.max_events, config.ttl_seconds, False, config.inserted_at, config.updated_at)


def effective_window(session: Session, *, tenant_id: str, main_topic: str) -> Window:
    """The Main Topic's stored config, or the default when none is stored."""
    config = session.get(BrokerTopicConfig, (tenant_id, main_topic))
    return stored_window(config) if config is not None else default_window(main_topic)


def window_floor(session: Session, *, tenant_id: str, window: Window, now_ms: int) -> tuple[int, int]:
    """The smallest (ts, seq) inside WINDOW at NOW_MS: history and the sweep keep what is at or above it."""
    floor = NO_FLOOR
    if window.ttl_seconds is not None:
        floor = (now_ms - window.ttl_seconds * 1000, 0)
    if window.max_events is not None:
        nth = session.execute(NTH_NEWEST_SQL, {"tenant": tenant_id, "main": window.topic,
                                               "skip": window.max_events - 1}).first()
        if nth is not None:
            floor = max(floor, (nth[0], nth[1]))
    return floor

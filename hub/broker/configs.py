"""Retention configs of Main Topics: put (replaces the whole config), get, list, delete."""

from __future__ import annotations

from typing import Any

from sqlalchemy import text
from sqlmodel import Session, select

from hub.broker.models import BrokerTopicConfig
from hub.broker.window import Window, effective_window, stored_window

UPSERT_SQL = text("""
INSERT INTO broker_topic_configs (tenant_id, topic, max_events, ttl_seconds, inserted_at, updated_at)
VALUES (:tenant, :topic, :max_events, :ttl_seconds, now(), now())
ON CONFLICT (tenant_id, topic) DO UPDATE
   SET max_events = EXCLUDED.max_events, ttl_seconds = EXCLUDED.ttl_seconds, updated_at = now()
RETURNING tenant_id, topic
""")


def window_body(window: Window) -> dict[str, Any]:
    """A config as the seed answers it."""
    return {"topic": window.topic, "max_events": window.max_events, "ttl_seconds": window.ttl_seconds,
            "default": window.default,
            "inserted_at": window.inserted_at.isoformat() if window.inserted_at else None,
            "updated_at": window.updated_at.isoformat() if window.updated_at else None}


def put_config(session: Session, *, tenant_id: str, topic: str, max_events: int | None,
               ttl_seconds: int | None) -> Window:
    """Store TOPIC's whole config (an omitted bound is None: unbounded); the caller commits."""
    session.execute(UPSERT_SQL, {"tenant": tenant_id, "topic": topic, "max_events": max_events,
                                 "ttl_seconds": ttl_seconds})
    session.commit()
    session.expire_all()
    return effective_window(session, tenant_id=tenant_id, main_topic=topic)


def list_configs(session: Session, *, tenant_id: str) -> list[Window]:
    """The tenant's stored configs, ordered by topic."""
    rows = session.exec(select(BrokerTopicConfig).where(BrokerTopicConfig.tenant_id == tenant_id)
                        .order_by(BrokerTopicConfig.topic)).all()
    return [stored_window(row) for row in rows]


def delete_config(session: Session, *, tenant_id: str, topic: str) -> None:
    """Remove TOPIC's config if there is one (idempotent)."""
    session.execute(text("DELETE FROM broker_topic_configs WHERE tenant_id = :tenant AND topic = :topic"),
                    {"tenant": tenant_id, "topic": topic})
    session.commit()

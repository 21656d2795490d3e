"""The ``ingestion`` readiness check: degraded while a live ingestion worker is retrying a fault.

Workers write a heartbeat row every few seconds (workers/ingest/heartbeat.py). Only workers of
this deployment's consumer group and topic prefix count, and only fresh rows: a worker that died
stops counting after ``STALE_AFTER`` heartbeat intervals. No worker at all is not a fault of the
API replica, so it reads healthy with a detail saying so.
"""

from __future__ import annotations

from sqlalchemy import text

from hub.config import get_settings
from hub.db import get_engine
from hub.ops.readiness import ReadinessOutcome

STALE_AFTER = 3
NAME = "ingestion"

_SQL = text("""
SELECT state, detail FROM ingest_worker_heartbeats
 WHERE consumer_group = :group AND topic_prefix = :prefix
   AND heartbeat_at > now() - make_interval(secs => :fresh)
 ORDER BY worker_id
""")


def ingestion_readiness() -> ReadinessOutcome:
    settings = get_settings()
    fresh = settings.ingest_heartbeat_seconds * STALE_AFTER
    try:
        with get_engine().connect() as connection:
            connection.execute(text("SET LOCAL statement_timeout = 2000"))
            rows = connection.execute(_SQL, {"group": settings.kafka_consumer_group,
                                             "prefix": settings.kafka_topic_prefix, "fresh": fresh}).all()
    except Exception as exc:  # noqa: BLE001 (the database check reports the database itself)
        return ReadinessOutcome(NAME, "healthy", f"worker heartbeats unreadable ({type(exc).__name__})")
    if not rows:
        return ReadinessOutcome(NAME, "healthy", "no ingestion worker reported recently")
    troubled = [detail for state, detail in rows if state != "healthy"]
    if troubled:
        return ReadinessOutcome(NAME, "degraded",
                            f"{len(troubled)} of {len(rows)} ingestion workers {troubled[0][:200]}")
    return ReadinessOutcome(NAME, "healthy", f"{len(rows)} ingestion worker(s) consuming")

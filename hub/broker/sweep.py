"""The broker's retention trim (E8): each Main Topic's history cut to its effective window.

Run by ``hub sweep`` (about once a minute in ``--loop``, ``broker_sweep_interval_seconds``). For
each (tenant, Main Topic) with history, the events below the window's floor are deleted from the
event log (their projection rows go with them), a batch per short transaction, except those an
open delivery job still needs: history already hides them (it filters by the window at read time),
and a later sweep deletes them once their jobs are finished. One process trims at a time.
"""

from __future__ import annotations

import logging
import time

from sqlalchemy import Engine, text
from sqlmodel import Session

from hub.broker.history import OPEN_JOBS
from hub.broker.projection import BROKER_SOURCE
from hub.broker.window import NO_FLOOR, effective_window, window_floor

log = logging.getLogger("hub.broker.sweep")

BROKER_SWEEP_LOCK_KEY = 0x6875622D6272  # "hub-br": a fixed advisory-lock key
# A loose index scan: each (tenant, Main Topic) of the history index once, without reading its events.
MAIN_TOPICS_SQL = text("""
WITH RECURSIVE found AS (
  (SELECT tenant_id, main_topic FROM broker_events ORDER BY tenant_id, main_topic LIMIT 1)
  UNION ALL
  SELECT next.tenant_id, next.main_topic FROM found, LATERAL (
    SELECT b.tenant_id, b.main_topic FROM broker_events b
     WHERE (b.tenant_id, b.main_topic) > (found.tenant_id, found.main_topic)
     ORDER BY b.tenant_id, b.main_topic LIMIT 1) next)
SELECT tenant_id, main_topic FROM found
""")
TRIM_SQL = text(f"""
DELETE FROM event_log WHERE tenant_id = :tenant AND source = :source AND seq IN (
  SELECT b.seq FROM broker_events b
   WHERE b.tenant_id = :tenant AND b.main_topic = :main AND (b.ts, b.seq) < (:floor_ts, :floor_seq)
     AND NOT EXISTS (SELECT 1 FROM delivery_jobs j WHERE j.tenant_id = b.tenant_id AND j.event_seq = b.seq
                                                    AND j.{OPEN_JOBS})
   ORDER BY b.ts, b.seq LIMIT :rows)
""")


def _trim(engine: Engine, tenant_id: str, main_topic: str, batch_rows: int) -> int:
    now_ms = time.time_ns() // 1_000_000
    with Session(engine) as session:
        window = effective_window(session, tenant_id=tenant_id, main_topic=main_topic)
        floor = window_floor(session, tenant_id=tenant_id, window=window, now_ms=now_ms)
    if floor == NO_FLOOR:
        return 0
    params = {"tenant": tenant_id, "source": BROKER_SOURCE, "main": main_topic, "floor_ts": floor[0],
              "floor_seq": floor[1], "rows": batch_rows}
    removed = 0
    while True:
        with engine.begin() as connection:
            batch = connection.execute(TRIM_SQL, params).rowcount
        if batch <= 0:
            return removed
        removed += batch


def sweep_broker(*, engine: Engine, batch_rows: int) -> int | None:
    """Trim every Main Topic's history to its window; the events deleted, or None when locked elsewhere."""
    with engine.connect() as lock:
        taken = lock.execute(text("SELECT pg_try_advisory_lock(:key)"), {"key": BROKER_SWEEP_LOCK_KEY}).scalar()
        lock.commit()
        if not taken:
            return None
        try:
            with engine.connect() as connection:
                topics = connection.execute(MAIN_TOPICS_SQL).all()
            deleted = sum(_trim(engine, tenant, main, batch_rows) for tenant, main in topics)
        finally:
            lock.execute(text("SELECT pg_advisory_unlock(:key)"), {"key": BROKER_SWEEP_LOCK_KEY})
            lock.commit()
    if deleted:
        log.info("broker history trimmed", extra={"fields": {"deleted": deleted, "main_topics": len(topics)}})
    return deleted

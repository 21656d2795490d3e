"""A heartbeat row per ingestion worker, so ``/readyz`` can show a worker stuck on a fault."""

from __future__ import annotations

import logging
import os
import socket
import time
import uuid

from hub.ingest.models import IngestWorkerHeartbeat
from hub.tableshape import column_list
from workers.kafka_loop import WorkerStatus
from workers.runtime import ReconnectingConnection

log = logging.getLogger("hub.ingest.heartbeat")

UPSERT_SQL = f"""
INSERT INTO ingest_worker_heartbeats ({column_list(IngestWorkerHeartbeat, "worker_id", "consumer_group",
    "topic_prefix", "state", "detail", "started_at", "heartbeat_at")})
VALUES (%s, %s, %s, %s, %s, now(), now())
ON CONFLICT (worker_id) DO UPDATE
   SET state = EXCLUDED.state, detail = EXCLUDED.detail, heartbeat_at = EXCLUDED.heartbeat_at
"""
DELETE_SQL = "DELETE FROM ingest_worker_heartbeats WHERE worker_id = %s"


def new_worker_id() -> str:
    return f"{socket.gethostname()[:64]}-{os.getpid()}-{uuid.uuid4().hex[:6]}"


class Heartbeat:
    """Writes this worker's status every ``interval`` seconds; best effort (the DB may be down).

    It has a connection of its own: the batch writer thread holds the store's connection in a
    transaction while the consuming thread beats.
    """

    def __init__(self, url: str, *, status: WorkerStatus, group: str, prefix: str, interval: float) -> None:
        self.db = ReconnectingConnection(url, application_name="hub-ingest-heartbeat")
        self.status = status
        self.group = group
        self.prefix = prefix
        self.interval = interval
        self.worker_id = new_worker_id()
        self._last = 0.0

    def close(self) -> None:
        self.db.close()

    def beat(self, *, force: bool = False) -> None:
        if not force and time.monotonic() - self._last < self.interval:
            return
        self._last = time.monotonic()
        row = (self.worker_id, self.group, self.prefix, self.status.state, self.status.detail[:500])
        try:
            self.db.run(lambda conn: conn.execute(UPSERT_SQL, row))
        except Exception as exc:  # noqa: BLE001 (a missed beat is not worth a crash)
            self.close()
            log.debug("heartbeat not written", extra={"fields": {"error": type(exc).__name__}})

    def remove(self) -> None:
        try:
            self.db.run(lambda conn: conn.execute(DELETE_SQL, (self.worker_id,)))
        except Exception:  # noqa: BLE001
            pass
        self.close()

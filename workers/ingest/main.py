"""``hub ingest``: run one ingestion worker until SIGTERM or SIGINT."""

from __future__ import annotations

import os

from hub.config import get_settings
from workers.ingest.worker import IngestWorker
from workers.runtime import WorkerRuntime


def run() -> None:
    """Entry point of ``hub ingest``."""
    settings = get_settings()
    runtime = WorkerRuntime.start("ingest", log_level=settings.log_level, metrics_port=settings.ingest_metrics_port,
                                  metrics_host=settings.ingest_metrics_host)
    if settings.ingest_nice > 0:
        # Ingest is fed as fast as Kafka hands it records; delivery is what users wait for. With equal
        # priority, an offered rate past capacity let ingest take the cores and delivery fell below its
        # sustained rate (bench/sustained.py); a niced ingest still runs whenever delivery leaves a core idle.
        os.nice(settings.ingest_nice)
    worker = IngestWorker(settings, runtime.stop_event)
    runtime.freeze_heap()
    worker.run()

"""``hub ingest``: run one ingestion worker until SIGTERM or SIGINT."""

from __future__ import annotations

from hub.config import get_settings
from workers.ingest.worker import IngestWorker
from workers.runtime import WorkerRuntime


def run() -> None:
    """Entry point of ``hub ingest``."""
    settings = get_settings()
    runtime = WorkerRuntime.start("ingest", log_level=settings.log_level, metrics_port=settings.ingest_metrics_port,
                                  metrics_host=settings.ingest_metrics_host)
    worker = IngestWorker(settings, runtime.stop_event)
    runtime.freeze_heap()
    worker.run()

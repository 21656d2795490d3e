"""``hub sweep``: the retention sweep once, or in a loop until SIGTERM/SIGINT."""

from __future__ import annotations

import logging
import signal
import threading
from datetime import timedelta

from prometheus_client import start_http_server

from hub.config import get_settings
from hub.db import get_engine
from hub.logs import configure_logging
from hub.retention.service import SweepReport, sweep_once

log = logging.getLogger("hub.retention")


def sweep_now() -> SweepReport | None:
    """One sweep with the configured retention window and batch size."""
    settings = get_settings()
    return sweep_once(engine=get_engine(), retention=timedelta(days=settings.retention_days),
                      batch_rows=settings.retention_batch_rows)


def run_loop(*, interval_seconds: float, metrics_port: int = 0) -> None:
    """Sweep, wait ``interval_seconds``, repeat; a failed sweep is logged and tried again next round."""
    settings = get_settings()
    configure_logging(settings.log_level)
    if metrics_port:
        start_http_server(metrics_port, addr=settings.ingest_metrics_host)
    stop = threading.Event()
    for signum in (signal.SIGTERM, signal.SIGINT):
        signal.signal(signum, lambda *_: stop.set())
    while not stop.is_set():
        try:
            if sweep_now() is None:
                log.info("another process is sweeping; skipped this round")
        except Exception:  # noqa: BLE001 (a database outage must not end the loop)
            log.exception("retention sweep failed")
        stop.wait(interval_seconds)

"""``hub sweep``: the retention sweep once, or in a loop until SIGTERM/SIGINT."""

from __future__ import annotations

import logging
import signal
import threading
import time
from datetime import timedelta

from prometheus_client import start_http_server

from hub import tracing
from hub.broker.sweep import sweep_broker
from hub.config import get_settings
from hub.db import get_engine
from hub.logs import configure_logging
from hub.retention.service import SweepReport, sweep_once

log = logging.getLogger("hub.retention")


def sweep_now() -> SweepReport | None:
    """One sweep with the configured retention window and batch size, then the broker's trim."""
    settings = get_settings()
    with tracing.linked_span("retention sweep", tuple):
        report = sweep_once(engine=get_engine(), retention=timedelta(days=settings.retention_days),
                            batch_rows=settings.retention_batch_rows)
        trim_broker()
    return report


def trim_broker() -> None:
    """The broker's history trim (about once a minute in the loop); a failure is logged, not raised."""
    try:
        sweep_broker(engine=get_engine(), batch_rows=get_settings().retention_batch_rows)
    except Exception:  # noqa: BLE001 (a database outage must not end the loop)
        log.exception("broker history trim failed")


def run_loop(*, interval_seconds: float, metrics_port: int = 0) -> None:
    """Sweep, wait ``interval_seconds``, repeat; a failed sweep is logged and tried again next round."""
    settings = get_settings()
    configure_logging(settings.log_level)
    tracing.configure("sweep")
    if metrics_port:
        start_http_server(metrics_port, addr=settings.ingest_metrics_host)
    stop = threading.Event()
    for signum in (signal.SIGTERM, signal.SIGINT):
        signal.signal(signum, lambda *_: stop.set())
    next_sweep = time.monotonic()
    while not stop.is_set():
        if time.monotonic() >= next_sweep:
            next_sweep = time.monotonic() + interval_seconds
            try:
                if sweep_now() is None:
                    log.info("another process is sweeping; skipped this round")
            except Exception:  # noqa: BLE001 (a database outage must not end the loop)
                log.exception("retention sweep failed")
        else:
            trim_broker()  # the broker's windows are minutes long: trimmed between the full sweeps
        stop.wait(max(0.0, min(settings.broker_sweep_interval_seconds, next_sweep - time.monotonic())))

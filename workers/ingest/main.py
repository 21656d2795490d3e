"""``hub ingest``: run one ingestion worker until SIGTERM or SIGINT."""

from __future__ import annotations

import logging
import signal
import threading

from prometheus_client import start_http_server

from hub.buildinfo import build_identity
from hub.config import get_settings
from hub.logs import configure_logging
from hub.metrics import set_build_info
from workers.ingest.worker import IngestWorker

log = logging.getLogger("hub.ingest")


def install_stop_signals(stop: threading.Event) -> None:
    """SIGTERM and SIGINT ask the loop to finish its batch, commit what is stored and leave."""

    def request_stop(signum: int, _frame: object) -> None:
        log.info("stop requested", extra={"fields": {"signal": signal.Signals(signum).name}})
        stop.set()

    signal.signal(signal.SIGTERM, request_stop)
    signal.signal(signal.SIGINT, request_stop)


def serve_metrics(port: int, host: str) -> None:
    if port:
        start_http_server(port, addr=host)
        log.info("metrics listener started", extra={"fields": {"port": port}})


def run() -> None:
    """Entry point of ``hub ingest``."""
    settings = get_settings()
    configure_logging(settings.log_level)
    set_build_info(build_identity()["commit"])
    serve_metrics(settings.ingest_metrics_port, settings.ingest_metrics_host)
    stop = threading.Event()
    install_stop_signals(stop)
    IngestWorker(settings, stop).run()

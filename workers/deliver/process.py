"""Process plumbing of `hub deliver`: stop signals, the metrics listener, database connections.

Kept apart from the engine so the shared worker runtime can take these over.
"""

from __future__ import annotations

import asyncio
import logging
import signal

import psycopg
from prometheus_client import start_http_server

from hub.db import libpq_url
from hub.metrics import JOB_BACKLOG, OLDEST_DUE_JOB_AGE
from workers.deliver import store

log = logging.getLogger("hub.deliver")

BACKLOG_EVERY_SECONDS = 5.0


def install_stop_signals(stop: asyncio.Event) -> None:
    """SIGTERM and SIGINT let each pipeline finish and record its batch, then leave."""
    loop = asyncio.get_running_loop()
    for signum in (signal.SIGTERM, signal.SIGINT):
        loop.add_signal_handler(signum, _stopper(stop, signum))


def _stopper(stop: asyncio.Event, signum: int):  # noqa: ANN202
    def request_stop() -> None:
        log.info("stop requested", extra={"fields": {"signal": signal.Signals(signum).name}})
        stop.set()
    return request_stop


def serve_metrics(port: int, host: str) -> None:
    if port:
        start_http_server(port, addr=host)
        log.info("metrics listener started", extra={"fields": {"port": port}})


async def connect() -> psycopg.AsyncConnection:
    """A fresh connection for one pipeline (the pipeline reconnects after a fault)."""
    return await psycopg.AsyncConnection.connect(libpq_url(), connect_timeout=5, application_name="hub-deliver")


async def report_backlog(stop: asyncio.Event) -> None:
    """Refresh the backlog gauges every few seconds while the process runs."""
    conn: psycopg.AsyncConnection | None = None
    while not stop.is_set():
        try:
            if conn is None or conn.closed:
                conn = await connect()
            count, age = await store.backlog(conn)
            JOB_BACKLOG.set(count)
            OLDEST_DUE_JOB_AGE.set(age)
        except (psycopg.OperationalError, psycopg.InterfaceError):
            conn = None
        try:
            await asyncio.wait_for(stop.wait(), BACKLOG_EVERY_SECONDS)
        except TimeoutError:
            pass
    if conn is not None:
        await conn.close()

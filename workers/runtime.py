"""What every worker process shares: stop signals, a metrics listener, PostgreSQL connections that
reconnect after a fault, and the names of the dead-letter headers.

- :class:`WorkerRuntime` ``(name)``: ``stop_event`` (a :class:`threading.Event`) and
  ``request_stop()`` (sets it from any thread); ``install_signal_handlers()`` (SIGTERM and SIGINT
  set ``stop_event``: the worker finishes what it holds, commits what is stored and leaves);
  ``serve_metrics(port, host)`` (a Prometheus ``/metrics`` and ``/livez`` listener, none when ``port`` is 0);
  ``freeze_heap()``; ``WorkerRuntime.start(name, ...)`` does logging, build info, metrics and
  signals in one call. For an asyncio worker (``hub deliver``): ``async_stop_event()`` (inside a
  running loop) gives an :class:`asyncio.Event` set together with ``stop_event`` and lets that loop
  handle SIGTERM and SIGINT itself; ``async_connector(role="")`` gives an :data:`AsyncConnector`
  named after the worker.
- :class:`ReconnectingConnection` ``(url, *, application_name, on_connect=None, connect_timeout=5)``,
  for the thread-based workers (``hub ingest``, ``hub dlq-observer``): ``run(fn)`` calls
  ``fn(connection)`` inside one transaction, connecting first when there is no open connection;
  when PostgreSQL is unreachable or the connection broke it closes the connection and raises
  :class:`TransientError` (the batch loop's signal to rewind and retry). ``on_connect(connection)``
  runs once per new connection (session setup, e.g. a temporary table). ``close()`` is idempotent.
- For the asyncio loops (from :mod:`hub.dataplane.reconnect`, shared with the API's live feed):
  :func:`run_reconnecting` runs a round of work again and again on one connection, reconnecting after
  a fault with a :class:`Backoff` between tries; :func:`sleep_unless_stopped` waits without delaying a
  shutdown.
- :class:`DLQHeader`: the header names on a dead-letter record, written by the workers that
  quarantine and read by the DLQ observer.
"""

from __future__ import annotations

import asyncio
import logging
import signal
import threading
from collections.abc import Callable
from typing import TypeVar

import psycopg
from hub.dataplane.reconnect import AsyncConnector, Backoff, run_reconnecting, sleep_unless_stopped
from hub.heap import freeze_heap
from workers import liveness
from workers.kafka_loop import TransientError

__all__ = ["TRANSIENT_DB_ERRORS", "AsyncConnector", "Backoff", "DLQHeader", "ReconnectingConnection", "WorkerRuntime",
           "async_connector", "run_reconnecting", "sleep_unless_stopped"]

log = logging.getLogger("hub.worker")

T = TypeVar("T")

# PostgreSQL is unreachable, or the connection broke under us: worth a retry on a new connection.
TRANSIENT_DB_ERRORS = (psycopg.OperationalError, psycopg.InterfaceError)



class DLQHeader:
    """Header names on a dead-letter record: the contract's set first, then the hub's own."""

    SOURCE_TOPIC = "dlq-source-topic"
    ERROR_CLASS = "dlq-error-class"
    ERROR_MESSAGE = "dlq-error-message"
    RETRY_COUNT = "dlq-retry-count"
    FIRST_FAILURE_AT = "dlq-first-failure-at"
    PRODUCER_ID = "dlq-producer-id"
    TENANT_ID_RAW = "dlq-tenant-id-raw"
    # Where the quarantined record sat, so two copies of one quarantine are observed once.
    SOURCE_PARTITION = "dlq-source-partition"
    SOURCE_OFFSET = "dlq-source-offset"
    SOURCE_TIMESTAMP = "dlq-source-timestamp"  # milliseconds, decimal
    # Present when the record was too large for the dead-letter topic and only its headers went.
    VALUE_OMITTED = "dlq-value-omitted"


class ReconnectingConnection:
    """One psycopg connection, opened on first use and again after a fault."""

    def __init__(
        self, url: str, *, application_name: str, on_connect: Callable[[psycopg.Connection], None] | None = None,
        connect_timeout: int = 5,
    ) -> None:
        self.url = url
        self.application_name = application_name
        self.on_connect = on_connect
        self.connect_timeout = connect_timeout
        self._conn: psycopg.Connection | None = None

    def connection(self) -> psycopg.Connection:
        """The open connection, or a new one; :class:`TransientError` when PostgreSQL is unreachable."""
        if self._conn is None or self._conn.closed:
            try:
                conn = psycopg.connect(self.url, connect_timeout=self.connect_timeout,
                                       application_name=self.application_name)
                if self.on_connect is not None:
                    with conn.transaction():
                        self.on_connect(conn)
            except TRANSIENT_DB_ERRORS as exc:
                raise _unavailable(exc) from exc
            self._conn = conn
        return self._conn

    def run(self, fn: Callable[[psycopg.Connection], T]) -> T:
        """``fn(connection)`` in one transaction; a connection fault closes it and raises TransientError."""
        conn = self.connection()
        try:
            with conn.transaction():
                return fn(conn)
        except TRANSIENT_DB_ERRORS as exc:
            self.close()
            raise _unavailable(exc) from exc

    def close(self) -> None:
        if self._conn is not None:
            self._conn.close()
            self._conn = None


def _unavailable(exc: BaseException) -> TransientError:
    return TransientError(f"PostgreSQL unavailable ({type(exc).__name__})")


class WorkerRuntime:
    """A worker process's stop event, signal handlers, metrics listener and database connections."""

    def __init__(self, name: str) -> None:
        self.name = name
        self.stop_event = threading.Event()
        self._async_stops: list[tuple[asyncio.AbstractEventLoop, asyncio.Event]] = []

    @classmethod
    def start(cls, name: str, *, log_level: str, metrics_port: int = 0, metrics_host: str = "127.0.0.1",
              build_info: bool = True) -> WorkerRuntime:
        """Logging, the build-info metric, the metrics listener and the stop signals, in that order."""
        from hub import tracing
        from hub.buildinfo import build_identity
        from hub.logs import configure_logging
        from hub.metrics import set_build_info

        configure_logging(log_level)
        tracing.configure(name)
        if build_info:
            set_build_info(build_identity()["commit"])
        runtime = cls(name)
        runtime.serve_metrics(metrics_port, metrics_host)
        runtime.install_signal_handlers()
        return runtime

    @staticmethod
    def freeze_heap() -> None:
        """Put every object alive now (modules, settings, clients: the started worker) out of the cyclic
        garbage collector's reach (:func:`hub.heap.freeze_heap`).

        Measured in the deliver bench: each full collection walked the whole imported heap and paused a
        worker for 60-160 ms, the largest part of the 500 events/s latency tail."""
        freeze_heap()

    def install_signal_handlers(self) -> None:
        """SIGTERM and SIGINT set ``stop_event`` (call from the main thread)."""

        def on_signal(signum: int, _frame: object) -> None:
            self.request_stop(signal.Signals(signum).name)

        signal.signal(signal.SIGTERM, on_signal)
        signal.signal(signal.SIGINT, on_signal)

    def request_stop(self, reason: str = "requested") -> None:
        """Set ``stop_event`` and every event from :meth:`async_stop_event` (safe from any thread)."""
        log.info("stop requested", extra={"fields": {"signal": reason, "worker": self.name}})
        self.stop_event.set()
        for loop, event in self._async_stops:
            if not loop.is_closed():
                loop.call_soon_threadsafe(event.set)

    def async_stop_event(self) -> asyncio.Event:
        """An :class:`asyncio.Event` of the running loop, set with ``stop_event``.

        The loop takes over SIGTERM and SIGINT (a plain signal handler would not wake a loop that
        is waiting on I/O), so call this from the main thread's loop; the loop also beats the worker's
        heartbeat from now on (:func:`workers.liveness.pulse`)."""
        loop = asyncio.get_running_loop()
        event = asyncio.Event()
        self._async_stops.append((loop, event))
        for signum in (signal.SIGTERM, signal.SIGINT):
            loop.add_signal_handler(signum, self.request_stop, signal.Signals(signum).name)
        liveness.pulse(loop)  # the worker's loop beats its own heartbeat (N94)
        if self.stop_event.is_set():
            event.set()
        return event

    def async_connector(self, url: str | None = None, *,
                        role: str = "") -> AsyncConnector:
        """An :data:`AsyncConnector` whose connections are named ``hub-<worker>[-<role>]``."""
        return async_connector(url, application_name=self._application_name(role))

    def _application_name(self, role: str) -> str:
        return f"hub-{self.name}-{role}" if role else f"hub-{self.name}"

    def serve_metrics(self, port: int, host: str) -> None:
        """Serve ``/metrics`` and ``/livez`` (N94) on ``host:port`` from a daemon thread; nothing when
        ``port`` is 0."""
        if port:
            from hub.config import get_settings

            liveness.serve(port, host, get_settings().worker_liveness_seconds)
            log.info("metrics listener started", extra={"fields": {"port": port, "worker": self.name}})


def async_connector(url: str | None = None, *, application_name: str,
                    connect_timeout: int = 5) -> AsyncConnector:
    """A coroutine function that opens a fresh :class:`psycopg.AsyncConnection` on each call."""

    async def connect() -> psycopg.AsyncConnection:
        from hub.db import libpq_url

        return await psycopg.AsyncConnection.connect(url or libpq_url(), connect_timeout=connect_timeout,
                                                     application_name=application_name)

    return connect

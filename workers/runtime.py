"""What every worker process shares: stop signals, a metrics listener, a PostgreSQL connection
that reconnects after a fault, and the names of the dead-letter headers.

``hub ingest``, ``hub dlq-observer`` and ``hub deliver`` run on it. A thread-based worker::

    runtime = WorkerRuntime.start("ingest", log_level=settings.log_level,
                                  metrics_port=settings.ingest_metrics_port,
                                  metrics_host=settings.ingest_metrics_host)
    db = runtime.connection()                     # application_name "hub-ingest"
    while not runtime.stop_event.is_set():
        rows = db.run_with_retry(store_batch, stop=runtime.stop_event, max_seconds=30)
        ...

An asyncio worker (``hub deliver``) binds its loop to the same stop signals::

    async def serve(runtime):
        stop = runtime.async_stop_event()         # set together with runtime.stop_event
        connect = runtime.async_connector()       # psycopg.AsyncConnection named "hub-deliver"
        ...

The API:

- :class:`WorkerRuntime` ``(name)``: ``stop_event`` (a :class:`threading.Event`);
  ``install_signal_handlers()`` (SIGTERM and SIGINT set ``stop_event``: the worker finishes what
  it holds, commits what is stored and leaves); ``serve_metrics(port, host)`` (a Prometheus
  ``/metrics`` listener, none when ``port`` is 0); ``connection(url=None, **options)`` (a
  :class:`ReconnectingConnection` named after the worker); ``WorkerRuntime.start(name, ...)``
  does logging, build info, metrics and signals in one call. ``request_stop()`` sets the stop
  event from any thread. ``async_stop_event()`` (inside a running loop) gives an
  :class:`asyncio.Event` set together with ``stop_event``, and lets that loop handle SIGTERM and
  SIGINT itself; ``async_connector(url=None, *, role="")`` gives a coroutine function that opens a
  fresh :class:`psycopg.AsyncConnection` named after the worker (the caller reconnects).
- :class:`ReconnectingConnection` ``(url, *, application_name, on_connect=None,
  connect_timeout=5)``: ``run(fn)`` calls ``fn(connection)`` inside one transaction, connecting
  first when there is no open connection; when PostgreSQL is unreachable or the connection broke
  it closes the connection and raises :class:`TransientError` (the batch loop's signal to rewind
  and retry). ``run_with_retry(fn, *, stop, max_seconds)`` retries ``run`` with exponential
  backoff and jitter until it succeeds or ``stop`` is set. ``on_connect(connection)`` runs once
  per new connection (session setup, e.g. a temporary table). ``close()`` is idempotent.
- :class:`DLQHeader`: the header names on a dead-letter record, written by the workers that
  quarantine and read by the DLQ observer.
"""

from __future__ import annotations

import asyncio
import gc
import logging
import signal
import threading
from collections.abc import Awaitable, Callable
from typing import TypeVar

import psycopg
from prometheus_client import start_http_server
from tenacity import RetryCallState, Retrying, retry_if_exception_type, wait_exponential_jitter

from workers.kafka_loop import TransientError

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
                raise unavailable(exc) from exc
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
            raise unavailable(exc) from exc

    def run_with_retry(self, fn: Callable[[psycopg.Connection], T], *, stop: threading.Event,
                       max_seconds: float) -> T:
        """:meth:`run`, retried with backoff through faults; re-raises TransientError once ``stop`` is set."""

        def note(state: RetryCallState) -> None:
            exc = state.outcome.exception() if state.outcome else None
            log.warning("database unavailable; retrying", extra={"fields": {
                "error": str(exc), "attempt": state.attempt_number, "application": self.application_name}})

        retrying = Retrying(
            retry=retry_if_exception_type(TransientError), wait=wait_exponential_jitter(initial=0.25, max=max_seconds),
            stop=lambda _state: stop.is_set(), before_sleep=note, sleep=stop.wait, reraise=True,
        )
        return retrying(self.run, fn)

    def close(self) -> None:
        if self._conn is not None:
            self._conn.close()
            self._conn = None


def unavailable(exc: BaseException) -> TransientError:
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
        from hub.buildinfo import build_identity
        from hub.logs import configure_logging
        from hub.metrics import set_build_info

        configure_logging(log_level)
        if build_info:
            set_build_info(build_identity()["commit"])
        runtime = cls(name)
        runtime.serve_metrics(metrics_port, metrics_host)
        runtime.install_signal_handlers()
        return runtime

    @staticmethod
    def freeze_heap() -> None:
        """Put every object alive now (modules, settings, clients: the started worker) out of the cyclic
        garbage collector's reach.

        Measured in the deliver bench: each full collection walked the whole imported heap and paused a
        worker for 60-160 ms, the largest part of the 500 events/s latency tail. Frozen objects are never
        scanned again; what the worker allocates later is collected as before."""
        gc.collect()
        gc.freeze()

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
        is waiting on I/O), so call this from the main thread's loop.
        """
        loop = asyncio.get_running_loop()
        event = asyncio.Event()
        self._async_stops.append((loop, event))
        for signum in (signal.SIGTERM, signal.SIGINT):
            loop.add_signal_handler(signum, self.request_stop, signal.Signals(signum).name)
        if self.stop_event.is_set():
            event.set()
        return event

    def async_connector(self, url: str | None = None, *,
                        role: str = "") -> Callable[[], Awaitable[psycopg.AsyncConnection]]:
        """A coroutine function opening a fresh async connection named ``hub-<worker>[-<role>]``."""
        return async_connector(url, application_name=self._application_name(role))

    def _application_name(self, role: str) -> str:
        return f"hub-{self.name}-{role}" if role else f"hub-{self.name}"

    def serve_metrics(self, port: int, host: str) -> None:
        """Serve ``/metrics`` on ``host:port`` from a daemon thread; nothing when ``port`` is 0."""
        if port:
            start_http_server(port, addr=host)
            log.info("metrics listener started", extra={"fields": {"port": port, "worker": self.name}})

    def connection(self, url: str | None = None, *, role: str = "", **options: object) -> ReconnectingConnection:
        """A :class:`ReconnectingConnection` to the hub's database, named ``hub-<worker>[-<role>]``."""
        if url is None:
            from hub.db import libpq_url

            url = libpq_url()
        return ReconnectingConnection(url, application_name=self._application_name(role),
                                      **options)  # type: ignore[arg-type]


def async_connector(url: str | None = None, *, application_name: str,
                    connect_timeout: int = 5) -> Callable[[], Awaitable[psycopg.AsyncConnection]]:
    """A coroutine function that opens a fresh :class:`psycopg.AsyncConnection` on each call."""

    async def connect() -> psycopg.AsyncConnection:
        from hub.db import libpq_url

        return await psycopg.AsyncConnection.connect(url or libpq_url(), connect_timeout=connect_timeout,
                                                     application_name=application_name)

    return connect

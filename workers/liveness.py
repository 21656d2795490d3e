"""A worker's liveness, told by its own loop (N94): a heartbeat the loop beats, and the listener that
serves it as ``/livez`` beside the Prometheus ``/metrics``.

- :func:`beat` marks the loop alive; the thread-based batch loop (:mod:`workers.kafka_loop`) calls it
  once per batch and while it waits out a fault, an asyncio worker's loop through :func:`pulse`.
- :func:`pulse` ``(loop)`` beats every :data:`PULSE_SECONDS` from callbacks on LOOP: when a coroutine
  blocks the loop, the callbacks stop and the heartbeat ages.
- :func:`serve` ``(port, host, stale_seconds)`` serves ``/livez`` (200 while the last beat is younger
  than ``stale_seconds`` or none came yet, else 503) and ``/metrics`` from a daemon thread. The probes
  ask ``/livez``: ``/metrics`` alone is answered by the listener's thread however stuck the loop is.
"""

from __future__ import annotations

import asyncio
import json
import threading
import time
from collections.abc import Callable, Iterable
from typing import Any
from wsgiref.simple_server import make_server

from prometheus_client import make_wsgi_app
from prometheus_client.exposition import ThreadingWSGIServer, _SilentHandler

PULSE_SECONDS = 1.0
_last_beat: float | None = None  # time.monotonic() of the last beat; one worker per process


def beat() -> None:
    """The worker's loop is alive now."""
    global _last_beat  # noqa: PLW0603 (one heartbeat per process, like the metrics registry)
    _last_beat = time.monotonic()


def age() -> float | None:
    """Seconds since the last beat; None before the first."""
    return None if _last_beat is None else time.monotonic() - _last_beat


def pulse(loop: asyncio.AbstractEventLoop, every: float = PULSE_SECONDS) -> None:
    """Beat every EVERY seconds from LOOP's own callbacks, for as long as the loop runs them."""

    def tick() -> None:
        beat()
        loop.call_later(every, tick)

    loop.call_soon_threadsafe(tick)


def answer(stale_seconds: float) -> tuple[int, dict[str, Any]]:
    """The status and body of ``/livez``: 503 once the last beat is older than STALE_SECONDS."""
    seconds = age()
    if seconds is None:
        return 200, {"status": "starting"}
    status = "ok" if seconds <= stale_seconds else "stuck"
    return (200 if status == "ok" else 503), {"status": status, "heartbeat_age_seconds": round(seconds, 3)}


def app(stale_seconds: float) -> Callable[..., Iterable[bytes]]:
    """A WSGI app: ``/livez`` from the heartbeat, anything else from the Prometheus registry."""
    metrics = make_wsgi_app()

    def route(environ: dict[str, Any], start_response: Callable[..., Any]) -> Iterable[bytes]:
        if environ.get("PATH_INFO") != "/livez":
            return metrics(environ, start_response)
        code, body = answer(stale_seconds)
        start_response(f"{code} {'OK' if code == 200 else 'Service Unavailable'}",
                       [("Content-Type", "application/json"), ("Cache-Control", "no-store")])
        return [json.dumps(body).encode()]

    return route


def serve(port: int, host: str, stale_seconds: float) -> ThreadingWSGIServer:
    """Serve ``/livez`` and ``/metrics`` on HOST:PORT from a daemon thread."""
    server = make_server(host, port, app(stale_seconds), ThreadingWSGIServer, handler_class=_SilentHandler)
    threading.Thread(target=server.serve_forever, name="metrics-listener", daemon=True).start()
    return server

"""ASGI middleware: a trace id per request (echoed as ``X-Trace-Id``) and latency metrics."""

from __future__ import annotations

import time
from typing import Any

import uuid_utils
from opentelemetry import trace
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from hub import tracing
from hub.logs import trace_id_var
from hub.metrics import API_LATENCY
from hub.problems import internal_error_response, log_unhandled

def _trace_id(headers: list[tuple[bytes, bytes]]) -> str:
    """The trace id of the caller's ``traceparent`` (parsed where every traceparent is), else a fresh one."""
    for name, value in headers:
        if name == b"traceparent":
            found = tracing.span_context_of(value.decode("latin-1").strip())
            if found is not None:
                return format(found.trace_id, "032x")
    return uuid_utils.uuid4().hex  # a random v4 id as before, without a getrandom call per request (N110)


# The latency histogram's child per (route, method, status): prometheus_client's labels() takes a lock
# and checks every value on each call, which cost more than the observation itself (N110). The keys are
# the ones the histogram itself keeps a child for.
_LATENCY_CHILDREN: dict[tuple[str, str, int], Any] = {}


def _observe_latency(route: str, method: str, status: int, seconds: float) -> None:
    """Record one request's latency under its route template, method and status."""
    child = _LATENCY_CHILDREN.get((route, method, status))
    if child is None:
        child = _LATENCY_CHILDREN[(route, method, status)] = API_LATENCY.labels(
            route=route, method=method, status=str(status))
    child.observe(seconds)


class TraceMiddleware:
    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        trace_id = _request_trace_id(scope.get("headers", []))
        token = trace_id_var.set(trace_id)
        started = time.perf_counter()
        status: dict[str, Any] = {"code": 500}

        async def send_with_trace(message: Message) -> None:
            if message["type"] == "http.response.start":
                status["code"] = message["status"]
                status["started"] = True
                message.setdefault("headers", [])
                message["headers"] = [*message["headers"], (b"x-trace-id", trace_id.encode())]
            await send(message)

        try:
            await self.app(scope, receive, send_with_trace)
        except Exception as exc:  # noqa: BLE001 (the last line of defence: answer, log, never leak)
            log_unhandled(scope, exc)
            if status.get("started"):
                raise
            await internal_error_response()(scope, receive, send_with_trace)
        finally:
            route = scope.get("route")
            _observe_latency(getattr(route, "path", "unmatched"), scope["method"], status["code"],
                             time.perf_counter() - started)
            trace_id_var.reset(token)


def _request_trace_id(headers: list[tuple[bytes, bytes]]) -> str:
    """The request's trace id: that of FastAPI's own request span when traces are recorded (N59), so the
    echoed ``X-Trace-Id`` finds the trace; else the caller's ``traceparent``'s, else a fresh one."""
    if tracing.enabled():
        context = trace.get_current_span().get_span_context()
        if context.is_valid:
            return format(context.trace_id, "032x")
    return _trace_id(headers)

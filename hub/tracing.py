"""OpenTelemetry traces across the pipeline (N59): publish → ingest → deliver → the receiver.

A process records spans only when ``otlp_endpoint`` is set (:func:`configure`); otherwise every call
here is a cheap no-op and nothing is exported. The producer's context rides with each event as the
CloudEvents distributed-tracing extension ``traceparent`` (W3C Trace Context), so ingest can link
its batch span to every event's producer and each delivery attempt continues the producer's trace.
"""

from __future__ import annotations

import contextlib
import logging
from collections.abc import Callable, Iterable, Iterator
from typing import Any

from opentelemetry import trace
from opentelemetry.context import Context
from opentelemetry.trace import Link, SpanContext
from opentelemetry.trace.propagation.tracecontext import TraceContextTextMapPropagator

log = logging.getLogger("hub.tracing")
TRACEPARENT = "traceparent"
MAX_LINKS = 128  # the SDK's default link limit per span: a larger batch links its first events
_propagator = TraceContextTextMapPropagator()
_enabled = False


def configure(service: str, endpoint: str | None = None) -> bool:
    """Record and export spans of SERVICE over OTLP/HTTP when ENDPOINT (else the setting) is set."""
    global _enabled  # noqa: PLW0603 (one provider per process, set once at start)
    if endpoint is None:
        from hub.config import get_settings
        endpoint = get_settings().otlp_endpoint
    if not endpoint or _enabled:
        return _enabled
    from opentelemetry.exporter.otlp.proto.http.trace_exporter import OTLPSpanExporter
    from opentelemetry.sdk.resources import Resource
    from opentelemetry.sdk.trace import TracerProvider
    from opentelemetry.sdk.trace.export import BatchSpanProcessor

    provider = TracerProvider(resource=Resource.create({"service.name": f"streaming-hub-{service}"}))
    provider.add_span_processor(BatchSpanProcessor(OTLPSpanExporter(endpoint=endpoint.rstrip("/") + "/v1/traces")))
    trace.set_tracer_provider(provider)
    _enabled = True
    log.info("exporting traces", extra={"fields": {"service": service}})
    return True


def enabled() -> bool:
    return _enabled


def tracer() -> trace.Tracer:
    return trace.get_tracer("streaming-hub")


def context_of(traceparent: Any) -> Context | None:
    """The remote parent context a ``traceparent`` value names; None when it is absent or malformed."""
    if not isinstance(traceparent, str) or not traceparent:
        return None
    context = _propagator.extract({TRACEPARENT: traceparent})
    return context if trace.get_current_span(context).get_span_context().is_valid else None


def span_context_of(traceparent: Any) -> SpanContext | None:
    context = context_of(traceparent)
    return trace.get_current_span(context).get_span_context() if context is not None else None


def links_of(traceparents: Iterable[Any]) -> list[Link]:
    """Links to the producers' contexts among TRACEPARENTS (at most :data:`MAX_LINKS`)."""
    links: list[Link] = []
    for value in traceparents:
        found = span_context_of(value)
        if found is not None:
            links.append(Link(found))
            if len(links) == MAX_LINKS:
                break
    return links


def traceparent_of(span: trace.Span | None = None) -> str | None:
    """The ``traceparent`` of SPAN (default: the current span), or None when it has no valid context."""
    carrier: dict[str, str] = {}
    context = trace.set_span_in_context(span) if span is not None else None
    _propagator.inject(carrier, context=context)
    return carrier.get(TRACEPARENT)


@contextlib.contextmanager
def linked_span(name: str, traceparents: Callable[[], Iterable[Any]]) -> Iterator[trace.Span]:
    """A span NAME linked to the producers' contexts that TRACEPARENTS() yields (called only when
    tracing is on); a non-recording span, at no cost, when it is off."""
    if not _enabled:
        yield trace.INVALID_SPAN
        return
    with tracer().start_as_current_span(name, links=links_of(traceparents())) as span:
        yield span

"""OpenTelemetry traces across the pipeline (N59), configured by the standard ``OTEL_*`` variables (N71).

A process records spans only when the environment asks for traces (:func:`configure`): an OTLP endpoint
(``OTEL_EXPORTER_OTLP_ENDPOINT``, ``OTEL_EXPORTER_OTLP_TRACES_ENDPOINT``, or the hub's alias
``HUB_OTLP_ENDPOINT``) or a named ``OTEL_TRACES_EXPORTER``. Otherwise every call here is a cheap no-op and
nothing is exported. The producer's context rides with each event as the CloudEvents distributed-tracing
extension ``traceparent`` (W3C Trace Context), so ingest can link its batch span to every event's producer
and each delivery attempt continues the producer's trace.
"""

from __future__ import annotations

import contextlib
import logging
import os
from collections.abc import Callable, Iterable, Iterator, Sequence
from typing import Any

from opentelemetry import trace
from opentelemetry.context import Context
from opentelemetry.environment_variables import OTEL_TRACES_EXPORTER
from opentelemetry.sdk.environment_variables import (
    OTEL_EXPORTER_OTLP_ENDPOINT,
    OTEL_EXPORTER_OTLP_PROTOCOL,
    OTEL_EXPORTER_OTLP_TRACES_ENDPOINT,
    OTEL_TRACES_SAMPLER,
    OTEL_TRACES_SAMPLER_ARG,
)
from opentelemetry.sdk.trace.sampling import Decision, ParentBased, Sampler, SamplingResult, StaticSampler
from opentelemetry.trace import Link, SpanContext, TraceState
from opentelemetry.util.types import Attributes
from opentelemetry.trace.propagation.tracecontext import TraceContextTextMapPropagator

log = logging.getLogger("hub.tracing")
TRACEPARENT = "traceparent"
MAX_LINKS = 128  # the SDK's default link limit per span: a larger batch links its first events
# The hub's defaults for what the environment leaves unset (N71). The sampler keeps 1 trace in 10 unless
# the caller's context decided (README "Traces", figures from bench/traces.py); the protocol is the
# specification's default (the Python SDK's own is gRPC).
DEFAULTS = {OTEL_TRACES_EXPORTER: "otlp", OTEL_EXPORTER_OTLP_PROTOCOL: "http/protobuf"}
DEFAULT_SAMPLER = ("parentbased_traceidratio", "0.1")
_propagator = TraceContextTextMapPropagator()
_enabled = False
_configured = False


def configure(service: str) -> bool:
    """Record and export spans as the ``OTEL_*`` variables say, named ``streaming-hub-SERVICE`` unless
    ``OTEL_SERVICE_NAME`` or ``OTEL_RESOURCE_ATTRIBUTES`` name the service; once per process.

    The SDK's own configurator reads the variables (the one its distributions use), so the sampler,
    resource, endpoint, protocol, headers, timeout and batching follow the specification, and
    ``OTEL_SDK_DISABLED=true`` leaves the process untraced."""
    global _enabled, _configured  # noqa: PLW0603 (one provider per process, set once at start)
    _alias_endpoint()
    if _configured or not _requested():
        return _enabled
    _configured = True
    _apply_defaults()
    from opentelemetry.sdk._configuration import _OTelSDKConfigurator

    try:
        _OTelSDKConfigurator().configure(resource_attributes=_own_name(service))
    except (RuntimeError, ValueError) as exc:  # an unsupported protocol or exporter: run untraced, say why
        log.error("traces are not exported", extra={"fields": {"service": service, "error": str(exc)}})
        return False
    _respect_sampled_links(trace.get_tracer_provider())
    # A disabled SDK (OTEL_SDK_DISABLED) hands out no-op tracers: nothing to record, so stay off.
    _enabled = not isinstance(tracer(), trace.NoOpTracer)
    if _enabled:
        log.info("exporting traces", extra={"fields": {"service": service}})
    return _enabled


def _respect_sampled_links(provider: trace.TracerProvider) -> None:
    """Wrap the sampler the SDK built from the environment in :class:`LinkedSampler` (N92), before any
    tracer takes it (a tracer keeps the provider's sampler of the moment it is made)."""
    from opentelemetry.sdk.trace import TracerProvider

    if isinstance(provider, TracerProvider) and not isinstance(provider.sampler, LinkedSampler):
        provider.sampler = LinkedSampler(provider.sampler)


class LinkedSampler(Sampler):
    """The configured sampler, except that a root span linked to a sampled context is recorded and sampled.

    Ingest, the consumer relay and the DLQ observer start each batch as a root span linked to the
    producers' contexts; a ratio sampler alone would drop 9 batches in 10 of a trace the producer sampled
    (N92). A span with a parent keeps the parent's decision, and a configured sampler that drops every
    root (``always_off``, ``parentbased_always_off``) still does."""

    def __init__(self, configured: Sampler) -> None:
        self.configured = configured

    def should_sample(self, parent_context: Context | None, trace_id: int, name: str,
                      kind: trace.SpanKind | None = None, attributes: Attributes = None,
                      links: Sequence[Link] | None = None, trace_state: TraceState | None = None) -> SamplingResult:
        """Sampled when a root span links a sampled context, else the configured sampler's decision."""
        parent = trace.get_current_span(parent_context).get_span_context()
        if not parent.is_valid and _any_sampled(links) and not _drops_every_root(self.configured):
            return SamplingResult(Decision.RECORD_AND_SAMPLE, attributes, trace_state)
        return self.configured.should_sample(parent_context, trace_id, name, kind, attributes, links, trace_state)

    def get_description(self) -> str:
        return f"LinkedSampler{{{self.configured.get_description()}}}"


def _any_sampled(links: Sequence[Link] | None) -> bool:
    return any(link.context.is_valid and link.context.trace_flags.sampled for link in links or ())


def _drops_every_root(sampler: Sampler) -> bool:
    """Whether SAMPLER is the operator's "no root traces": always_off, alone or as a parent-based root."""
    root = sampler._root if isinstance(sampler, ParentBased) else sampler  # noqa: SLF001 (the SDK's only handle)
    return isinstance(root, StaticSampler) and root.get_description() == "AlwaysOffSampler"


def _requested() -> bool:
    """Whether the environment asks for traces: an OTLP endpoint or an exporter other than ``none``."""
    exporter = os.environ.get(OTEL_TRACES_EXPORTER, "").strip().lower()
    if exporter == "none":
        return False
    return bool(exporter) or any(os.environ.get(name) for name in (OTEL_EXPORTER_OTLP_ENDPOINT,
                                                                   OTEL_EXPORTER_OTLP_TRACES_ENDPOINT))


def _alias_endpoint() -> None:
    """``HUB_OTLP_ENDPOINT`` is ``OTEL_EXPORTER_OTLP_ENDPOINT`` under the hub's older name; the standard
    variables win when both are set."""
    from hub.config import get_settings

    alias = get_settings().otlp_endpoint
    standard = (OTEL_EXPORTER_OTLP_ENDPOINT, OTEL_EXPORTER_OTLP_TRACES_ENDPOINT)
    if alias and not any(os.environ.get(name) for name in standard):
        os.environ[OTEL_EXPORTER_OTLP_ENDPOINT] = alias


def _apply_defaults() -> None:
    """The hub's defaults, as environment defaults, for the SDK to read like the operator's own.

    An operator who names a sampler gets exactly it (``traceidratio`` without an argument keeps all,
    as the specification says); one who gives only ``OTEL_TRACES_SAMPLER_ARG`` sets the hub's ratio."""
    for name, value in DEFAULTS.items():
        if not os.environ.get(name):
            os.environ[name] = value
    if not os.environ.get(OTEL_TRACES_SAMPLER):
        os.environ[OTEL_TRACES_SAMPLER] = DEFAULT_SAMPLER[0]
        if not os.environ.get(OTEL_TRACES_SAMPLER_ARG):
            os.environ[OTEL_TRACES_SAMPLER_ARG] = DEFAULT_SAMPLER[1]


def _own_name(service: str) -> dict[str, str]:
    """The process's default ``service.name``, or nothing when the environment names the service (the
    resource attributes given to the SDK override the environment's)."""
    from opentelemetry.sdk.resources import SERVICE_NAME, OTELResourceDetector

    named = SERVICE_NAME in OTELResourceDetector().detect().attributes
    return {} if named else {SERVICE_NAME: f"streaming-hub-{service}"}


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
def server_span(name: str, traceparent: str | None = None) -> Iterator[trace.Span]:
    """A server span NAME, the caller's TRACEPARENT (a request's metadata) its parent when given; a
    non-recording span, at no cost, when tracing is off."""
    if not _enabled:
        yield trace.INVALID_SPAN
        return
    parent = context_of(traceparent) if traceparent else None
    with tracer().start_as_current_span(name, context=parent, kind=trace.SpanKind.SERVER) as span:
        yield span


def current_traceparent() -> str | None:
    """The ``traceparent`` of the current span, for a record a surface produces; None when tracing is off."""
    return traceparent_of() if _enabled else None


@contextlib.contextmanager
def linked_span(name: str, traceparents: Callable[[], Iterable[Any]]) -> Iterator[trace.Span]:
    """A span NAME linked to the producers' contexts that TRACEPARENTS() yields (called only when
    tracing is on); a non-recording span, at no cost, when it is off."""
    if not _enabled:
        yield trace.INVALID_SPAN
        return
    with tracer().start_as_current_span(name, links=links_of(traceparents())) as span:
        yield span

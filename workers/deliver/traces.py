"""A span per delivery attempt, continuing the trace of the event's producer (N59)."""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence

from opentelemetry.trace import Span, SpanKind, Status, StatusCode

from hub import tracing
from hub.sinks.base import AttemptResult, PreparedDelivery


def start_attempts(batch: list[PreparedDelivery]) -> tuple[list[PreparedDelivery], list[Span]]:
    """One started span per delivery of BATCH, each delivery given its span's ``traceparent``;
    the batch as it is, and no span, when tracing is off."""
    if not tracing.enabled():
        return batch, []
    spans, traced, tracer = [], [], tracing.tracer()
    for delivery in batch:
        span = tracer.start_span(
            f"deliver {delivery.sink_kind}", kind=SpanKind.CLIENT,
            context=tracing.context_of(delivery.attributes.get(tracing.TRACEPARENT)),
            attributes={"hub.subscription.id": str(delivery.subscription_id), "hub.delivery.id": delivery.delivery_id,
                        "hub.delivery.attempt": delivery.attempt, "hub.tenant.id": delivery.tenant_id})
        spans.append(span)
        traced.append(dataclasses.replace(delivery, traceparent=tracing.traceparent_of(span)))
    return traced, spans


def end_attempts(spans: list[Span], results: Sequence[AttemptResult | BaseException]) -> None:
    """End each attempt's span with its outcome (an exception: the try raised before it had a result)."""
    if not spans:  # tracing is off
        return
    for span, result in zip(spans, results, strict=True):  # a sink answers every delivery of its batch
        if isinstance(result, AttemptResult):
            span.set_attributes({"hub.attempt.ok": result.ok, "http.response.status_code": result.status_code,
                                 "hub.attempt.error_class": result.error_class})
            if not result.ok:
                span.set_status(Status(StatusCode.ERROR, result.error_class))
        else:
            span.record_exception(result)
            span.set_status(Status(StatusCode.ERROR, type(result).__name__))
        span.end()

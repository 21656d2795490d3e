"""``EventPublishingService`` (seed 000): the gRPC face of :mod:`hub.publisher.service`."""

from __future__ import annotations

import math
from datetime import UTC, datetime, timedelta
from typing import Any

import grpc

from hub import tracing
from hub.errors import ValidationFailed
from hub.grpcapi.status import grpc_method
from hub.grpcapi.stubs import publisher_stubs
from hub.publisher import service
from hub.publisher.access import Publisher, publisher_from_token
from hub.publisher.models import (
    InvalidEvent,
    PublishEvent,
    PublishOutcome,
    check_event_type,
    check_resource_id,
)

pb, pb_grpc = publisher_stubs()


def metadata_value(context: grpc.aio.ServicerContext, name: str) -> str | None:
    """A metadata value by its (lower-case) name: gRPC lower-cases metadata keys."""
    for key, value in context.invocation_metadata() or ():
        if key == name:
            return value if isinstance(value, str) else value.decode()
    return None


def authorization(context: grpc.aio.ServicerContext) -> str | None:
    """The ``authorization`` metadata value."""
    return metadata_value(context, "authorization")


SERVICE = "nvidia.omniverse.notifications.publisher.v1beta.EventPublishingService"  # the span names' prefix
TRACEPARENT = "traceparent"  # a caller's W3C trace context in the request metadata
MAX_EXACT_INTEGER = 2**53  # a double holds every integer up to here exactly
EPOCH = datetime(1970, 1, 1, tzinfo=UTC)
MIN_SECONDS, MAX_SECONDS = -62_135_596_800, 253_402_300_799  # a Timestamp's range: years 1 to 9999
NANOS_PER_SECOND = 1_000_000_000


def struct_json(struct: Any) -> dict[str, Any]:
    """A ``google.protobuf.Struct`` as plain JSON, as ``json_format.MessageToDict`` reads it (same keys in
    the same order; a non-finite number is its ValueError) but in one pass, with one difference: a
    whole-number double becomes an integer (``3``, not ``3.0``), since a Struct has only doubles and
    the REST publisher of the same message would send ``3``."""
    return {key: value_json(value) for key, value in struct.fields.items()}


def value_json(value: Any) -> Any:
    """One ``google.protobuf.Value`` as plain JSON (see :func:`struct_json`)."""
    kind = value.WhichOneof("kind")
    if kind == "string_value":
        return value.string_value
    if kind == "number_value":
        number = value.number_value
        if number.is_integer():  # False for inf and NaN
            return int(number) if -MAX_EXACT_INTEGER <= number <= MAX_EXACT_INTEGER else number
        if not math.isfinite(number):  # json_format's refusal, word for word
            name = "NaN" if math.isnan(number) else "Infinity"
            raise ValueError(f"Fail to serialize {name} for Value.number_value, which would parse as string_value")
        return number
    if kind == "bool_value":
        return value.bool_value
    if kind == "struct_value":
        return struct_json(value.struct_value)
    if kind == "list_value":
        return [value_json(item) for item in value.list_value.values]
    return None  # null_value, or no kind at all (MessageToDict reads both as null)


def timestamp_datetime(timestamp: Any) -> datetime:
    """``timestamp.ToDatetime(tzinfo=UTC)``: the same arithmetic inline for a valid timestamp (N63); the
    library itself (and its ValueError) for any other."""
    seconds, nanos = timestamp.seconds, timestamp.nanos
    if MIN_SECONDS <= seconds <= MAX_SECONDS and 0 <= nanos < NANOS_PER_SECOND:
        return EPOCH + timedelta(seconds=seconds, microseconds=nanos // 1000)  # toward zero: nanos >= 0
    return timestamp.ToDatetime(tzinfo=UTC)


def event_from_proto(message: Any) -> PublishEvent | InvalidEvent:
    """One ``Event`` message checked against the seed's rules (the same as the REST body's)."""
    try:
        event_type = check_event_type(message.event_type)
        if not message.HasField("message"):
            raise ValueError("message must be a JSON object")
        if not message.HasField("occurred_at"):
            raise ValueError("occurred_at is required")
        occurred_at = timestamp_datetime(message.occurred_at)
        resource_id = check_resource_id(message.resource.resource_id) if message.HasField("resource") else None
    except ValueError as exc:
        return InvalidEvent(str(exc), message)
    return PublishEvent(event_type, struct_json(message.message), occurred_at, resource_id, message)


def result_fields(event: PublishEvent | InvalidEvent, outcome: PublishOutcome) -> dict[str, Any]:
    """The fields of one ``PublishingResult``: the event echoed, ``failure_reason`` only when it failed."""
    if outcome.success:
        return {"event": event.echo, "success": True}
    return {"event": event.echo, "success": False, "failure_reason": outcome.failure_reason}


def result_message(event: PublishEvent | InvalidEvent, outcome: PublishOutcome) -> Any:
    """One ``PublishingResult`` (:func:`result_fields`)."""
    return pb.PublishingResult(**result_fields(event, outcome))


def batch_response(events: list[PublishEvent | InvalidEvent], outcomes: list[PublishOutcome]) -> Any:
    """The ``BatchPublishEventsResponse``: one result per event, in order."""
    response = pb.BatchPublishEventsResponse()
    add = response.results.add  # built in place: a result made apart is copied in again (N63)
    for event, outcome in zip(events, outcomes, strict=True):
        add(**result_fields(event, outcome))
    return response


class EventPublishingService(pb_grpc.EventPublishingServiceServicer):
    """PublishEvent and BatchPublishEvents, authenticated by the ``authorization`` metadata."""

    async def _publisher(self, context: grpc.aio.ServicerContext) -> Publisher:
        return await publisher_from_token(authorization(context))

    @grpc_method
    async def PublishEvent(self, request: Any, context: grpc.aio.ServicerContext) -> Any:  # noqa: N802
        with tracing.server_span(f"{SERVICE}/PublishEvent", metadata_value(context, TRACEPARENT)):
            publisher = await self._publisher(context)
            if not request.HasField("event"):
                raise ValidationFailed("invalid event: event is required")
            event = event_from_proto(request.event)
            outcome = await service.publish_one(publisher=publisher, event=event)
            return pb.PublishEventResponse(result=result_message(event, outcome))

    @grpc_method
    async def BatchPublishEvents(self, request: Any, context: grpc.aio.ServicerContext) -> Any:  # noqa: N802
        with tracing.server_span(f"{SERVICE}/BatchPublishEvents", metadata_value(context, TRACEPARENT)):
            publisher = await self._publisher(context)
            service.check_batch_size(len(request.events))
            events = [event_from_proto(message) for message in request.events]
            outcomes = await service.publish_events(publisher=publisher, events=events)
            return batch_response(events, outcomes)


def add_to_server(server: grpc.aio.Server) -> str:
    """Register the service on SERVER; returns its full name (for the health service)."""
    pb_grpc.add_EventPublishingServiceServicer_to_server(EventPublishingService(), server)
    return pb.DESCRIPTOR.services_by_name["EventPublishingService"].full_name

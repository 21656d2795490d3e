"""``EventPublishingService`` (seed 000): the gRPC face of :mod:`hub.publisher.service`."""

from __future__ import annotations

from datetime import UTC
from typing import Any

import grpc
from google.protobuf import json_format

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


def authorization(context: grpc.aio.ServicerContext) -> str | None:
    """The ``authorization`` metadata value (gRPC lower-cases metadata keys)."""
    for key, value in context.invocation_metadata() or ():
        if key == "authorization":
            return value if isinstance(value, str) else value.decode()
    return None


MAX_EXACT_INTEGER = 2**53  # a double holds every integer up to here exactly


def json_value(value: Any) -> Any:
    """A Struct value as JSON: a whole-number double becomes an integer (``3``, not ``3.0``), since a
    Struct has only doubles and the REST publisher of the same message would send ``3``."""
    if isinstance(value, float) and value.is_integer() and abs(value) <= MAX_EXACT_INTEGER:
        return int(value)
    if isinstance(value, dict):
        return {key: json_value(item) for key, item in value.items()}
    if isinstance(value, list):
        return [json_value(item) for item in value]
    return value


def event_from_proto(message: Any) -> PublishEvent | InvalidEvent:
    """One ``Event`` message checked against the seed's rules (the same as the REST body's)."""
    try:
        event_type = check_event_type(message.event_type)
        if not message.HasField("message"):
            raise ValueError("message must be a JSON object")
        if not message.HasField("occurred_at"):
            raise ValueError("occurred_at is required")
        occurred_at = message.occurred_at.ToDatetime(tzinfo=UTC)
        resource_id = check_resource_id(message.resource.resource_id) if message.HasField("resource") else None
    except ValueError as exc:
        return InvalidEvent(str(exc), message)
    return PublishEvent(event_type, json_value(json_format.MessageToDict(message.message)), occurred_at, resource_id,
                        message)


def result_message(event: PublishEvent | InvalidEvent, outcome: PublishOutcome) -> Any:
    """One ``PublishingResult``: the event echoed, ``failure_reason`` only when it failed."""
    return pb.PublishingResult(event=event.echo, success=outcome.success,
                               failure_reason="" if outcome.success else outcome.failure_reason)


class EventPublishingService(pb_grpc.EventPublishingServiceServicer):
    """PublishEvent and BatchPublishEvents, authenticated by the ``authorization`` metadata."""

    async def _publisher(self, context: grpc.aio.ServicerContext) -> Publisher:
        return await publisher_from_token(authorization(context))

    @grpc_method
    async def PublishEvent(self, request: Any, context: grpc.aio.ServicerContext) -> Any:  # noqa: N802
        publisher = await self._publisher(context)
        if not request.HasField("event"):
            raise ValidationFailed("invalid event: event is required")
        event = event_from_proto(request.event)
        outcome = await service.publish_one(publisher=publisher, event=event)
        return pb.PublishEventResponse(result=result_message(event, outcome))

    @grpc_method
    async def BatchPublishEvents(self, request: Any, context: grpc.aio.ServicerContext) -> Any:  # noqa: N802
        publisher = await self._publisher(context)
        service.check_batch_size(len(request.events))
        events = [event_from_proto(message) for message in request.events]
        outcomes = await service.publish_events(publisher=publisher, events=events)
        return pb.BatchPublishEventsResponse(results=[result_message(event, outcome)
                                                      for event, outcome in zip(events, outcomes, strict=True)])


def add_to_server(server: grpc.aio.Server) -> str:
    """Register the service on SERVER; returns its full name (for the health service)."""
    pb_grpc.add_EventPublishingServiceServicer_to_server(EventPublishingService(), server)
    return pb.DESCRIPTOR.services_by_name["EventPublishingService"].full_name

"""The REST shapes of seed 000's publisher API, for the OpenAPI document and the response bodies.

The bodies are read by :mod:`hub.publisher.router` event by event (an invalid event in a batch
fails alone), so these models document the shapes rather than validate a whole body at once.
"""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel, Field

from hub.bodies import documented_models
from hub.publisher.models import PublishOutcome


class EventResource(BaseModel):
    resource_id: str = Field(description="The resource the event is about, e.g. `/users/123`.")


class PublisherEvent(BaseModel):
    """One event as the publisher sends it (and as its result echoes it)."""

    event_type: str = Field(description="The event's type, e.g. `myapp.user.created`.", min_length=1)
    message: dict[str, Any] = Field(description="The event's payload: a JSON object.")
    occurred_at: str = Field(description="When the event happened (RFC 3339, with an offset).",
                             json_schema_extra={"format": "date-time"})
    resource: EventResource | None = Field(default=None, description="Optional.")


class PublishEventRequest(BaseModel):
    event: PublisherEvent


class BatchPublishEventsRequest(BaseModel):
    events: list[PublisherEvent] = Field(description="The events; each gets its own result, in this order.")


class PublishingResult(BaseModel):
    event: Any = Field(description="The event as it was sent (an object, unless an invalid one was not).")
    success: bool = Field(description="`true` only when the event is durable on the backbone.")
    failure_reason: str | None = Field(default=None, description="Only set if success is false.")


class PublishEventResponse(BaseModel):
    result: PublishingResult


class BatchPublishEventsResponse(BaseModel):
    results: list[PublishingResult]


documented_models.extend([PublishEventRequest, BatchPublishEventsRequest])


def result_body(echo: Any, outcome: PublishOutcome) -> dict[str, Any]:
    """One ``PublishingResult`` as the seed shows it: ``failure_reason`` only when it failed."""
    body: dict[str, Any] = {"event": echo, "success": outcome.success}
    if not outcome.success:
        body["failure_reason"] = outcome.failure_reason
    return body

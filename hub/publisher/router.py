"""``POST /api/v1beta/events`` and ``POST /api/v1beta/events/batch``: seed 000's publisher REST API."""

from __future__ import annotations

from typing import Any

import orjson
from fastapi import APIRouter, Request, Response
from pydantic import BaseModel, Field

from hub import apidocs as docs
from hub.bodies import parse_json, request_body_doc
from hub.errors import BadRequest, ValidationFailed
from hub.publisher import service
from hub.publisher.access import publisher_from_token
from hub.publisher.models import event_from_json
from hub.publisher.schemas import (
    BatchPublishEventsRequest,
    BatchPublishEventsResponse,
    PublishEventRequest,
    PublishEventResponse,
    result_body,
)

router = APIRouter(tags=["Event Publisher"])
# The publish operations document the bearer token without a Security dependency, which FastAPI
# would resolve on every request for nothing: publisher_from_token reads the header (N61).
BEARER_DOC: dict[str, Any] = {"security": [{docs.bearer_scheme.scheme_name: []}]}

OVERLOADED = docs.problem("`publisher_overloaded`: the backbone cannot take more now; retry with backoff "
                          "(or `AUT-0033`).", headers={"Retry-After": docs.RETRY_AFTER})
ERRORS: dict[int | str, dict[str, Any]] = {
    400: docs.problem("The body is not JSON, or not a JSON object: `bad_request`."),
    401: docs.UNAUTHORIZED,
    403: docs.problem("`AUT-1020`: the credential lacks `event-publisher-service:publish`, or (single "
                      "publish) the event type is not in its `publish_event_types`."),
    422: docs.VALIDATION, 500: docs.INTERNAL, 503: OVERLOADED, 504: docs.GATEWAY_TIMEOUT,
}


async def _body(request: Request) -> dict[str, Any]:
    """The request's JSON object, read after the token was checked (400 when it is not one)."""
    raw = await request.body()
    if not raw.strip():
        raise BadRequest("a JSON body is required")
    body = parse_json(raw, request.headers.get("content-type"))
    if not isinstance(body, dict):
        raise BadRequest("the body must be a JSON object")
    return body


def _json(body: dict[str, Any]) -> Response:
    return Response(orjson.dumps(body), media_type="application/json")


class ServiceHealth(BaseModel):
    status: str = Field(description="`healthy` while the process serves requests.")


@router.get("/health", operation_id="getServiceHealth", response_model=ServiceHealth,
            responses={200: docs.success("The service is up.")})
def service_health() -> Response:
    """Seed 000's REST health check: 200 while the service serves (the hub's probes: /healthz, /readyz)."""
    return _json({"status": "healthy"})


@router.post("/api/v1beta/events", operation_id="publishEvent", response_model=PublishEventResponse,
             responses={200: docs.success("The event's result; `success: false` when the broker did not "
                                          "take it."), **ERRORS},
             openapi_extra={**request_body_doc(PublishEventRequest), **BEARER_DOC})
async def publish_event(request: Request) -> Response:
    """Publishes a single event."""
    publisher = await publisher_from_token(request.headers.get("authorization"))
    body = await _body(request)
    if "event" not in body:
        raise ValidationFailed("the body needs an event", errors=[{"location": "event", "message": "required"}])
    event = event_from_json(body["event"])
    outcome = await service.publish_one(publisher=publisher, event=event)
    return _json({"result": result_body(event.echo, outcome)})


@router.post("/api/v1beta/events/batch", operation_id="batchPublishEvents",
             response_model=BatchPublishEventsResponse,
             responses={200: docs.success("One result per event, in request order; some may fail."), **ERRORS},
             openapi_extra={**request_body_doc(BatchPublishEventsRequest), **BEARER_DOC})
async def batch_publish_events(request: Request) -> Response:
    """Publishes multiple events; each event has its own result."""
    publisher = await publisher_from_token(request.headers.get("authorization"))
    raw_events = (await _body(request)).get("events")
    if not isinstance(raw_events, list):
        raise ValidationFailed("events must be a list of events",
                               errors=[{"location": "events", "message": "a list is required"}])
    service.check_batch_size(len(raw_events))
    events = [event_from_json(raw) for raw in raw_events]
    outcomes = await service.publish_events(publisher=publisher, events=events)
    return _json({"results": [result_body(event.echo, outcome) for event, outcome in zip(events, outcomes,
                                                                                          strict=True)]})


# Served by plain Starlette routes ahead of the app's routes (hub.plainroutes, N66): one request per
# event, and these endpoints take only the request, so FastAPI's dependency solving is pure cost.
PLAIN_ENDPOINTS = (publish_event, batch_publish_events)

"""Seed 000's consumer REST API: the SSE streams and the durable queues (the face of :mod:`hub.consumer`).

It mirrors the gRPC face (:mod:`hub.grpcapi.consumer`) call for call. Every error before a stream
opens is the hub's problem+json with the seed's status; after it opens, an SSE ``error`` event.
"""

from __future__ import annotations

import contextlib
from typing import Any

import orjson
from fastapi import APIRouter, Depends, Request, Response, Security

from hub import apidocs as docs
from hub.bodies import json_body, request_body_doc
from hub.consumer import service
from hub.consumer.access import Consumer, consumer_from_token
from hub.consumer.filters import FilterGroup, InvalidFilter, groups_from_json
from hub.consumer.schemas import (
    QUEUE_ID_RULE,
    CreateDurableQueueRequest,
    CreateDurableQueueResponse,
    SuccessResponse,
    UpdateDurableQueueRequest,
    domain_groups,
)
from hub.consumer.sse import EventStreamResponse, durable_frames, non_durable_frames
from hub.consumer.stream import Stream
from hub.consumer.topology import ConsumerRabbit
from hub.errors import ValidationFailed, invalid

router = APIRouter(tags=["Event Consumer"])
BEARER = [Security(docs.bearer_scheme)]
TOKEN_HEADER = "Last-Event-ID"

ERRORS: dict[int | str, dict[str, Any]] = {
    401: docs.UNAUTHORIZED,
    403: docs.problem("`AUT-1020`: the credential lacks the durable-queue permission this call needs."),
    404: docs.problem("`queue_not_found`: no such queue of the caller's tenant (gone, expired, or never made)."),
    422: docs.problem("`validation_error`: a queue id, reconnect token or filter group breaks its rule."),
    500: docs.INTERNAL,
    503: docs.problem("`broker_unavailable`: the message broker cannot be reached; retry with backoff."),
}
BODY_ERRORS = {400: docs.problem("The body is not JSON: `bad_request`."), **ERRORS}
STREAM_OK = {"description": "An SSE stream: `connected`, then `event` frames; an `error` frame ends it.",
             "content": {"text/event-stream": {"schema": {"type": "string"}}}}


class EventStreamDoc(Response):
    """Documents a stream route's 200 as ``text/event-stream`` (the routes return EventStreamResponse)."""

    media_type = "text/event-stream"


def _query(name: str, description: str, *, required: bool = False, deprecated: bool = False) -> dict[str, Any]:
    return {"name": name, "in": "query", "required": required, "deprecated": deprecated,
            "description": description, "schema": {"type": "string"}}


QUEUE_ID = _query("queue_id", f"The durable queue's id. {QUEUE_ID_RULE}", required=True)
STREAM_PARAMETERS = docs.parameters(
    _query("filter_groups", "URL-encoded JSON array of FilterGroup objects."),
    _query("previous_filter_groups", "URL-encoded JSON array of the previous FilterGroup objects; sent with a "
                                     "token and filter_groups, it makes the request a filter update."),
    _query("reconnect_token", "Deprecated: send the token as Last-Event-ID. 1 to 200 printable ASCII.",
           deprecated=True),
    {"name": TOKEN_HEADER, "in": "header", "required": False, "schema": {"type": "string"},
     "description": "The reconnect token (preferred carrier); 1 to 200 printable ASCII characters."})


def broker(request: Request) -> ConsumerRabbit:
    """The API process's one broker connection, made on first use."""
    state = request.app.state
    if getattr(state, "consumer_broker", None) is None:
        state.consumer_broker = ConsumerRabbit()
    return state.consumer_broker


def caller(request: Request) -> Consumer:
    return consumer_from_token(request.headers.get("authorization"))


def _json(body: dict[str, Any], status: int = 200) -> Response:
    return Response(orjson.dumps(body), status_code=status, media_type="application/json")


def _groups(request: Request, field: str) -> tuple[FilterGroup, ...] | None:
    """The query parameter FIELD's filter groups (None when absent); 422 when it is not such JSON."""
    raw = request.query_params.get(field)
    if raw is None:
        return None
    try:
        return groups_from_json(orjson.loads(raw), field)
    except orjson.JSONDecodeError:
        raise invalid(field, f"{field} must be a URL-encoded JSON array of filter groups") from None
    except InvalidFilter as exc:
        raise invalid(field, str(exc)) from None


def _token(request: Request) -> str | None:
    """The reconnect token: Last-Event-ID first, else the deprecated query parameter; its shape checked."""
    header = request.headers.get(TOKEN_HEADER)
    if header is None:
        token = request.query_params.get("reconnect_token")
        return None if token is None else service.check_token(token)
    try:
        return service.check_token(header)
    except ValidationFailed as exc:  # name the carrier the client used; the rule's words stay the same
        raise invalid(TOKEN_HEADER, exc.detail.replace("reconnect_token", TOKEN_HEADER)) from None


async def _open(broker_: ConsumerRabbit, consumer: Consumer, queue_id: str, frames: Any) -> EventStreamResponse:
    """Attach a stream before answering (so a missing queue is a 404), then hand it to the response."""
    stack = contextlib.AsyncExitStack()
    stream = await stack.enter_async_context(Stream(broker_, queue_id=queue_id, consumer=consumer))
    return EventStreamResponse(frames(stream, queue_id), close=stack.aclose)


@router.get("/api/v1beta/events/stream", operation_id="streamNonDurableEvents", dependencies=BEARER,
            response_class=EventStreamDoc, responses={200: STREAM_OK, **ERRORS},
            openapi_extra=STREAM_PARAMETERS)
async def stream_events(request: Request, consumer: Consumer = Depends(caller)) -> Response:
    """Streams events using a non-durable queue (Server-Sent Events)."""
    groups, previous = _groups(request, "filter_groups"), _groups(request, "previous_filter_groups")
    queue_id = await service.open_non_durable(broker=broker(request), consumer=consumer, token=_token(request),
                                              groups=groups or (), update=previous is not None)
    return await _open(broker(request), consumer, queue_id, non_durable_frames)


@router.get("/api/v1beta/events/stream-durable", operation_id="streamDurableEvents", dependencies=BEARER,
            response_class=EventStreamDoc, responses={200: STREAM_OK, **ERRORS},
            openapi_extra=docs.parameters(QUEUE_ID))
async def stream_durable_events(request: Request, consumer: Consumer = Depends(caller)) -> Response:
    """Streams events from a durable queue (Server-Sent Events), acknowledged after a short delay."""
    record = await service.attach_durable(broker=broker(request), consumer=consumer,
                                          queue_id=request.query_params.get("queue_id", ""))
    return await _open(broker(request), consumer, record.queue_id, durable_frames)


def _domain_groups(groups: list[Any], field: str) -> tuple[FilterGroup, ...]:
    try:
        return domain_groups(groups, field)
    except InvalidFilter as exc:
        raise invalid(field, str(exc)) from None


@router.post("/api/v1beta/queues/durable", operation_id="createDurableQueue", dependencies=BEARER,
             response_model=CreateDurableQueueResponse, status_code=201,
             response_description="A new queue, created under the queue_id supplied.",
             responses={200: {"description": "An existing queue (`created: false`), or a generated id.",
                              "model": CreateDurableQueueResponse}, **BODY_ERRORS},
             openapi_extra=request_body_doc(CreateDurableQueueRequest))
async def create_durable_queue(request: Request, consumer: Consumer = Depends(caller),
                               body: CreateDurableQueueRequest = Depends(
                                   json_body(CreateDurableQueueRequest, after=caller))) -> Response:
    """Creates a durable queue (ensure-exists when queue_id is given): 201 created, else 200."""
    queue_id, created = await service.ensure_durable(broker=broker(request), consumer=consumer,
                                                     queue_id=body.queue_id,
                                                     groups=_domain_groups(body.filter_groups, "filter_groups"))
    status = 201 if created and body.queue_id else 200  # the seed: a generated id answers 200
    return _json({"queue_id": queue_id, "created": created}, status)


@router.patch("/api/v1beta/queues/durable", operation_id="updateDurableQueue", dependencies=BEARER,
              response_model=SuccessResponse, responses={200: docs.success("The filters were replaced."),
                                                         **BODY_ERRORS},
              openapi_extra=request_body_doc(UpdateDurableQueueRequest))
async def update_durable_queue(request: Request, consumer: Consumer = Depends(caller),
                               body: UpdateDurableQueueRequest = Depends(
                                   json_body(UpdateDurableQueueRequest, after=caller))) -> Response:
    """Updates a durable queue's filters (authorized by create-durable-queues)."""
    service.check_queue_id(body.queue_id)
    groups = _domain_groups(body.new_filter_groups, "new_filter_groups")
    await service.update_durable(broker=broker(request), consumer=consumer, queue_id=body.queue_id, groups=groups)
    return _json({"success": True})


@router.delete("/api/v1beta/queues/durable", operation_id="deleteDurableQueue", dependencies=BEARER,
               response_model=SuccessResponse, responses={200: docs.success("The queue is deleted."), **ERRORS},
               openapi_extra=docs.parameters(QUEUE_ID))
async def delete_durable_queue(request: Request, consumer: Consumer = Depends(caller)) -> Response:
    """Deletes a durable queue with its messages."""
    await service.delete_durable(broker=broker(request), consumer=consumer,
                                 queue_id=request.query_params.get("queue_id", ""))
    return _json({"success": True})

"""``/v1/durable-queues``: the tenant's seed 000 durable queues, read-only (an extension, N76; thin).

The contract's gates as every ``/v1`` read has them: a bearer token of the tenant holding
``event-consumer-service:consume-durable-queues``, metered on the reads allowance (X-RateLimit-*,
429 with Retry-After), problem+json refusals, and the uniform 404 for an id that is absent,
another tenant's or malformed. Creating, re-filtering and deleting stay the seed's own routes.
"""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Depends, Request, Response, Security

from hub import apidocs as docs
from hub.auth.deps import require_permission
from hub.auth.tokens import Principal
from hub.consumer.access import CONSUME
from hub.consumer.router import broker
from hub.durablequeues import service
from hub.durablequeues.schemas import DurableQueueList, DurableQueueResponse
from hub.ratelimit.service import Allowance, metered
from hub.responses import json_response

router = APIRouter(tags=["Durable queues"], dependencies=[Security(docs.bearer_scheme)])

RESOURCE, _, ACTION = CONSUME.partition(":")
CAN_READ = metered(Allowance.READS, require_permission(RESOURCE, ACTION))
BROKER_DOWN = docs.problem("`broker_unavailable` (the message broker cannot be reached), `AUT-0033` or "
                           "`rate_limiter_unavailable`; transient.", headers={"Retry-After": docs.RETRY_AFTER})
ERRORS: dict[int | str, dict[str, Any]] = {**docs.METERED_READ_ERRORS, 503: BROKER_DOWN, 422: docs.BAD_TEXT}
LIST_PARAMETERS = docs.parameters(
    {"name": "limit", "in": "query", "required": False, "schema": {"type": "integer"},
     "description": f"Page size, default {service.DEFAULT_LIMIT}, clamped to {service.MAX_LIMIT}; "
                    "non-positive means the default."},
    {"name": "after", "in": "query", "required": False, "schema": {"type": "string"},
     "description": "The previous page's `next_cursor`."})
QUEUE_ID_PARAMETER = docs.parameters(
    {"name": "queue_id", "in": "path", "required": True, "schema": {"type": "string"},
     "description": "The durable queue's id (`^[A-Za-z0-9._-]{1,200}$`)."})


def _queue_id(request: Request) -> str:
    return str(request.path_params.get("queue_id", ""))


@router.get("/v1/durable-queues", operation_id="listDurableQueues", summary="List the tenant's durable queues",
            response_model=DurableQueueList, openapi_extra=LIST_PARAMETERS,
            responses={**ERRORS, 200: docs.success("A page of queues, by queue id.", headers=docs.RATE_LIMIT_HEADERS)})
async def list_durable_queues(request: Request, response: Response,
                              principal: Annotated[Principal, Depends(CAN_READ)]) -> Response:
    """The tenant's durable queues with filters, depth, unacknowledged count, consumers and idle expiry."""
    page = await service.list_queues(broker=broker(request), tenant_id=str(principal.tenant_id),
                                     limit=service.page_limit(request.query_params.get("limit")),
                                     after=request.query_params.get("after", ""))
    return json_response({"queues": page.queues, "next_cursor": page.next_cursor}, metered_by=response)


@router.get("/v1/durable-queues/{queue_id}", operation_id="getDurableQueue", summary="Get one durable queue",
            response_model=DurableQueueResponse, openapi_extra=QUEUE_ID_PARAMETER,
            responses={**ERRORS, 404: docs.NOT_FOUND,
                       200: docs.success("The queue's state.", headers=docs.RATE_LIMIT_HEADERS)})
async def get_durable_queue(request: Request, response: Response,
                            principal: Annotated[Principal, Depends(CAN_READ)]) -> Response:
    """One durable queue of the tenant, or the uniform 404."""
    queue = await service.get_queue(broker=broker(request), tenant_id=str(principal.tenant_id),
                                    queue_id=_queue_id(request))
    return json_response({"queue": queue}, metered_by=response)

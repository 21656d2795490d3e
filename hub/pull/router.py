"""``GET /v1/events``: the pull inbox route (thin: parameters, service call, body)."""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Depends, Request, Response, Security

from hub import apidocs as docs
from hub.auth.deps import require_permission
from hub.auth.tokens import Principal
from hub.db import SessionDep
from hub.errors import BadRequest
from hub.pull import service
from hub.pull.schemas import PullEventsResponse, page_body
from hub.ratelimit.service import Allowance, metered
from hub.subscription.values import Caller

router = APIRouter(tags=["Event Delivery"], dependencies=[Security(docs.bearer_scheme)])

METERED_PULL = metered(Allowance.EVENTS, require_permission("events", "get"))
RATE_LIMIT_NAMES = ("x-ratelimit-limit", "x-ratelimit-remaining", "x-ratelimit-reset")
POSITION_HEADER, CAUGHT_UP_HEADER = "X-Pull-Position", "X-Pull-Caught-Up"

PROGRESS_HEADERS: dict[str, Any] = {
    POSITION_HEADER: {"description": "The `seq` through which this read examined the tenant's log.",
                      "schema": {"type": "integer"}},
    CAUGHT_UP_HEADER: {"description": "`true` when the read reached the end of the log; `false` when the "
                                      "page filled or the read stopped at its scan bound (read again).",
                       "schema": {"type": "string", "enum": ["true", "false"]}},
}
PARAMETERS = docs.parameters(
    {"name": "subscription_id", "in": "query", "required": True, "schema": {"type": "string", "format": "uuid"},
     "description": "The pull subscription to read; absent, foreign and non-pull ids are one uniform 404."},
    {"name": "after", "in": "query", "required": False, "schema": {"type": "integer", "format": "int64"},
     "description": "Read after this `seq` instead of the persisted cursor; malformed or negative is ignored."},
    {"name": "limit", "in": "query", "required": False, "schema": {"type": "integer"},
     "description": "Page size, clamped to 1-500; default 100."},
)
RESPONSES: dict[int | str, dict[str, Any]] = {
    200: docs.success("A page of events in ascending `seq` order.",
                      headers={**docs.RATE_LIMIT_HEADERS, **PROGRESS_HEADERS}),
    400: docs.problem("The required `subscription_id` query parameter is missing: `bad_request`."),
    401: docs.UNAUTHORIZED, 403: docs.FORBIDDEN, 404: docs.NOT_FOUND, 429: docs.RATE_LIMITED,
    500: docs.INTERNAL, 504: docs.GATEWAY_TIMEOUT,
    503: docs.problem("`AUT-0033`, `rate_limiter_unavailable` or `delegated_party_unconfirmed`; transient.",
                      headers={"Retry-After": docs.RETRY_AFTER}),
}


@router.get("/v1/events", operation_id="pullEvents", response_model=PullEventsResponse, responses=RESPONSES,
            openapi_extra=PARAMETERS)
def pull_events(
    request: Request, response: Response, principal: Annotated[Principal, Depends(METERED_PULL)],
    session: SessionDep,
) -> Response:
    """A page of the pull subscription's events; the read acknowledges them (cursor-as-ack)."""
    params = request.query_params
    subscription_id = params.get("subscription_id")
    if not subscription_id:
        raise BadRequest("the subscription_id query parameter is required")
    assert principal.tenant_id is not None
    page = service.pull_events(
        session=session, caller=Caller(tenant_id=principal.tenant_id, delegated_scope=principal.delegated_scope),
        subscription_id=subscription_id, after=service.parse_after(params.get("after")),
        limit=service.clamp_limit(params.get("limit")))
    headers = {name: value for name, value in response.headers.items() if name in RATE_LIMIT_NAMES}
    headers[POSITION_HEADER] = str(page.position)
    headers[CAUGHT_UP_HEADER] = "true" if page.caught_up else "false"
    return Response(page_body(page), media_type="application/json", headers=headers)

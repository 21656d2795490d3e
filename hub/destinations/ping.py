"""``POST /v1/subscriptions/{id}/ping``: a synchronous signed probe (no X-Idempotency, no rate limit)."""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Depends, Security

from hub import apidocs as docs
from hub.auth.tokens import Principal
from hub.config import get_settings
from hub.db import SessionDep
from hub.destinations.schemas import ProbeResult
from hub.destinations.service import ping_subscription
from hub.responses import json_response
from hub.subscription.route_helpers import CAN_POST, IdPath, caller_of

router = APIRouter(tags=["Subscriptions"], dependencies=[Security(docs.bearer_scheme)])

PING_RESPONSES: dict[int | str, dict[str, Any]] = {
    200: docs.success("The probe ran; the body carries the classified result."),
    401: docs.UNAUTHORIZED, 403: docs.FORBIDDEN, 404: docs.NOT_FOUND,
    422: docs.problem("`probe_unsupported_for_sink_kind`: only a webhook has a ping probe."),
    500: docs.INTERNAL, 503: docs.SERVICE_UNAVAILABLE, 504: docs.GATEWAY_TIMEOUT,
}


@router.post("/v1/subscriptions/{id}/ping", operation_id="pingSubscription", responses=PING_RESPONSES,
             response_model=ProbeResult,
             openapi_extra=docs.parameters(docs.SUBSCRIPTION_ID_PARAMETER))
def ping_subscription_route(principal: Annotated[Principal, Depends(CAN_POST)], session: SessionDep,
                            sub_id: IdPath) -> Any:
    """Probe a webhook subscription's endpoint now; a success activates it."""
    result = ping_subscription(session=session, caller=caller_of(principal), subscription_id=sub_id,
                               settings=get_settings())
    return json_response(result)

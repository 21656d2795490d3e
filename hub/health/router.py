"""``GET /v1/subscriptions/{id}/health`` (getSubscriptionHealth): thin; the rollup is in the service."""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, Depends, Response, Security

from hub import apidocs as docs
from hub.auth.tokens import Principal
from hub.db import SessionDep
from hub.health.schemas import SubscriptionHealth, as_health
from hub.health.service import read_health
from hub.responses import json_response
from hub.subscription import service as subscriptions
from hub.subscription.route_helpers import ID_ONLY, METERED_GET, METERED_READ_ERRORS, RATE_HEADERS, IdPath, caller_of

router = APIRouter(tags=["Subscriptions"], dependencies=[Security(docs.bearer_scheme)])

READ_TIMEOUT_NOTE = ("`AUT-0033` or `rate_limiter_unavailable` (with `Retry-After`), or `read_timeout` "
                     "(the read ran out of its time budget; no `Retry-After`).")


@router.get("/v1/subscriptions/{id}/health", operation_id="getSubscriptionHealth",
            summary="Get subscription delivery health", response_model=SubscriptionHealth,
            response_model_exclude_none=True, openapi_extra=ID_ONLY,
            responses={**METERED_READ_ERRORS, 404: docs.NOT_FOUND,
                       200: docs.success("The delivery-health rollup.", headers=RATE_HEADERS),
                       503: docs.problem(READ_TIMEOUT_NOTE, headers={"Retry-After": docs.RETRY_AFTER})})
def get_subscription_health(
    response: Response, principal: Annotated[Principal, Depends(METERED_GET)], session: SessionDep,
    sub_id: IdPath,
) -> Response:
    """The subscription's delivery-health rollup, or the uniform 404 (the existence gate runs first)."""
    sub = subscriptions.get_subscription(session=session, caller=caller_of(principal), subscription_id=sub_id)
    return json_response(as_health(sub, read_health(session=session, sub=sub)), metered_by=response)

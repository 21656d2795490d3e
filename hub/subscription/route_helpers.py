"""What every route under ``/v1/subscriptions`` shares: permission gates, the path id, the caller,
and the documented error responses (used by the subscription, health, destination and ping routers).
"""

from __future__ import annotations

from typing import Annotated

from fastapi import Depends, Request

from hub import apidocs as docs
from hub.auth.deps import require_permission
from hub.auth.tokens import Principal
from hub.ratelimit.service import Allowance, metered
from hub.subscription.values import Caller

CAN_GET = require_permission("subscriptions", "get")
CAN_POST = require_permission("subscriptions", "post")
CAN_DELETE = require_permission("subscriptions", "delete")
CAN_PATCH = require_permission("subscriptions", "patch")
METERED_GET = metered(Allowance.READS, CAN_GET)

ID_ONLY = docs.parameters(docs.SUBSCRIPTION_ID_PARAMETER)
ID_AND_KEY = docs.parameters(docs.SUBSCRIPTION_ID_PARAMETER, docs.IDEMPOTENCY_KEY_PARAMETER)


def subscription_id(request: Request) -> str:
    """The path id as sent; the hub answers a malformed one with the uniform 404."""
    return str(request.path_params.get("id", ""))


async def raw_body(request: Request) -> bytes:
    return await request.body()


def caller_of(principal: Principal) -> Caller:
    assert principal.tenant_id is not None
    return Caller(tenant_id=principal.tenant_id, delegated_scope=principal.delegated_scope)


IdPath = Annotated[str, Depends(subscription_id)]
METERED_READ_ERRORS = docs.METERED_READ_ERRORS
MUTATION_ERRORS = {400: docs.BAD_REQUEST_OR_IDEMPOTENCY, 401: docs.UNAUTHORIZED, 403: docs.FORBIDDEN,
                   409: docs.IDEMPOTENCY_CONFLICT, 500: docs.INTERNAL, 503: docs.SERVICE_UNAVAILABLE,
                   504: docs.GATEWAY_TIMEOUT}
REPLAYED = {"X-Idempotency-Replayed": docs.IDEMPOTENCY_REPLAYED}
RATE_HEADERS = docs.RATE_LIMIT_HEADERS

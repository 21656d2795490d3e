"""The delivery-options resource under ``/v1/subscriptions/{id}`` (N67; thin: gates, checks, service).

Reading takes what reading a subscription takes (``subscriptions:get``, metered); replacing takes
what the PATCH takes (``subscriptions:patch`` and ``X-Idempotency``).
"""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, Depends, Response, Security
from sqlmodel import Session

from hub import apidocs as docs
from hub.auth.tokens import Principal
from hub.bodies import json_body, request_body_doc
from hub.db import SessionDep
from hub.idempotency.deps import idempotency_key
from hub.idempotency.service import IdempotentRequest, execute
from hub.responses import json_response
from hub.subscription import service
from hub.subscription.options import DeliveryOptionsValue, as_options, check_options, replace_options
from hub.subscription.options_schemas import DeliveryOptions, DeliveryOptionsRequest
from hub.subscription.route_helpers import (
    CAN_PATCH, ID_AND_KEY, ID_ONLY, METERED_GET, METERED_READ_ERRORS, MUTATION_ERRORS, RATE_HEADERS, REPLAYED,
    IdPath, caller_of,
)

router = APIRouter(tags=["Subscriptions"], dependencies=[Security(docs.bearer_scheme)])

PATH = "/v1/subscriptions/{id}/delivery-options"
KEY_PUT = idempotency_key(CAN_PATCH, replayed_on=(200,))
PUT_BODY = json_body(DeliveryOptionsRequest, after=KEY_PUT)


@router.get(PATH, operation_id="getSubscriptionDeliveryOptions", summary="Get a subscription's delivery options",
            response_model=DeliveryOptions, openapi_extra=ID_ONLY,
            responses={**METERED_READ_ERRORS, 404: docs.NOT_FOUND,
                       200: docs.success("The payload filter, static headers and rate limit in force.",
                                         headers=RATE_HEADERS)})
def get_delivery_options(
    response: Response, principal: Annotated[Principal, Depends(METERED_GET)], session: SessionDep, sub_id: IdPath,
) -> Response:
    """The subscription's delivery options (extension, N67), or the uniform 404."""
    sub = service.get_subscription(session=session, caller=caller_of(principal), subscription_id=sub_id)
    return json_response(as_options(sub), metered_by=response)


@router.put(PATH, operation_id="putSubscriptionDeliveryOptions", summary="Replace a subscription's delivery options",
            response_model=DeliveryOptions,
            openapi_extra={**ID_AND_KEY, **request_body_doc(DeliveryOptionsRequest)},
            responses={**MUTATION_ERRORS, 404: docs.NOT_FOUND, 422: docs.VALIDATION,
                       200: docs.success("Replaced; the options now in force.", headers=REPLAYED)})
def put_delivery_options(
    principal: Annotated[Principal, Depends(CAN_PATCH)], sub_id: IdPath,
    key: Annotated[IdempotentRequest, Depends(KEY_PUT)],
    body: Annotated[DeliveryOptionsRequest, Depends(PUT_BODY)],
) -> Response:
    """Replace the whole set (extension, N67): a field left out is null, so `{}` removes every option."""

    def work(session: Session, options: DeliveryOptionsValue) -> Response:
        sub = replace_options(session=session, caller=caller_of(principal), subscription_id=sub_id, options=options)
        return json_response(as_options(sub))

    return execute(key, work, lambda: check_options(body))

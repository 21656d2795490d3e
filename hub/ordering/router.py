"""The blocked-keys routes under ``/v1/subscriptions/{id}`` (N77; thin: gates, service, projection).

Listing takes what reading the delivery log takes (``subscriptions:get``, metered); resuming takes what a
resend takes (``subscriptions:post`` and ``X-Idempotency``, its answer replayed).
"""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Depends, Request, Response, Security
from sqlmodel import Session

from hub import apidocs as docs
from hub.auth.tokens import Principal
from hub.bodies import json_body, request_body_doc
from hub.db import SessionDep
from hub.deliverylog.filters import DEFAULT_LIMIT, MAX_LIMIT, page_limit
from hub.idempotency.deps import idempotency_key
from hub.idempotency.service import IdempotentRequest, execute
from hub.ordering import service
from hub.ordering.schemas import BlockedKeysPage, ResumeBlockedKeyRequest, ResumeBlockedKeyResponse, as_blocked_key
from hub.responses import json_response
from hub.subscription import service as subscriptions
from hub.subscription.route_helpers import (
    CAN_POST, METERED_GET, METERED_READ_ERRORS, MUTATION_ERRORS, RATE_HEADERS, REPLAYED, IdPath, caller_of,
)

router = APIRouter(tags=["Deliveries"], dependencies=[Security(docs.bearer_scheme)])

PATH = "/v1/subscriptions/{id}/blocked-keys"
KEY_RESUME = idempotency_key(CAN_POST, replayed_on=(200,))
RESUME_BODY = json_body(ResumeBlockedKeyRequest, after=KEY_RESUME)


def _query(name: str, description: str, schema: dict[str, Any]) -> dict[str, Any]:
    return {"name": name, "in": "query", "required": False, "description": description, "schema": schema}


# Read as plain strings and checked by the hub (N1), so a bad value is its own 422 validation_error.
LIST_PARAMETERS = docs.parameters(
    docs.SUBSCRIPTION_ID_PARAMETER,
    _query("limit", f"Page size, default {DEFAULT_LIMIT}, clamped to {MAX_LIMIT}; non-positive "
                    "means the default.", {"type": "integer"}),
    _query("after", "The previous page's `next_cursor` (opaque).", {"type": "string"}),
)
NOT_FOUND = docs.problem("The subscription is absent, deleted or another tenant's (a uniform `not_found`), or "
                         "it has no open key of that value: `ordered_key_not_found`.")
REFUSED = docs.problem("`key_not_blocked` (the key's head is still being delivered), `subscription_disabled`, "
                       "`subscription_not_active`, `event_not_retained` (retry), `idempotency_conflict` or "
                       "`idempotency_outcome_unrecorded`.", headers=REPLAYED)


def _sub(session: Session, principal: Principal, sub_id: str, *, for_update: bool = False) -> Any:
    return subscriptions.get_subscription(session=session, caller=caller_of(principal), subscription_id=sub_id,
                                          for_update=for_update)


@router.get(PATH, operation_id="listSubscriptionBlockedKeys", summary="List an ordered subscription's blocked keys",
            response_model=BlockedKeysPage, openapi_extra=LIST_PARAMETERS,
            responses={**METERED_READ_ERRORS, 404: docs.NOT_FOUND, 400: docs.problem("`invalid_cursor`."),
                       422: docs.VALIDATION,
                       200: docs.success("A page of blocked keys, oldest block first.", headers=RATE_HEADERS)})
def list_blocked_keys(request: Request, response: Response, principal: Annotated[Principal, Depends(METERED_GET)],
                      session: SessionDep, sub_id: IdPath) -> Response:
    """The keys whose head dead-lettered under `block`: each head's event, its last error and how many
    events wait behind it (extension, N77). An unordered subscription has none."""
    sub = _sub(session, principal, sub_id)
    query = request.query_params
    page = service.list_blocked(session=session, sub=sub, limit=page_limit(query.get("limit")),
                                after=query.get("after"))
    return json_response({"blocked_keys": [as_blocked_key(row) for row in page.rows],
                          "next_cursor": page.next_cursor}, metered_by=response)


@router.post(f"{PATH}/resume", operation_id="resumeSubscriptionBlockedKey", summary="Resume a blocked key",
             response_model=ResumeBlockedKeyResponse,
             openapi_extra={**docs.parameters(docs.SUBSCRIPTION_ID_PARAMETER, docs.IDEMPOTENCY_KEY_PARAMETER),
                            **request_body_doc(ResumeBlockedKeyRequest)},
             responses={**MUTATION_ERRORS, 404: NOT_FOUND, 409: REFUSED, 422: docs.VALIDATION,
                        200: docs.success("Resumed: the key delivers again.", headers=REPLAYED)})
def resume_blocked_key(principal: Annotated[Principal, Depends(CAN_POST)], sub_id: IdPath,
                       key: Annotated[IdempotentRequest, Depends(KEY_RESUME)],
                       body: Annotated[ResumeBlockedKeyRequest, Depends(RESUME_BODY)]) -> Response:
    """Retry the blocked head (a new job, due now) or skip it (the key's next event goes), extension N77."""

    def work(session: Session, _: None) -> Response:
        sub = _sub(session, principal, sub_id, for_update=True)
        job_id = service.resume(session=session, sub=sub, key=body.key, action=body.action)
        return json_response({"resumed": {"key": body.key, "action": body.action, "job_id": str(job_id)}})

    return execute(key, work)

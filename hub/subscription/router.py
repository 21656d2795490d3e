"""The seven subscription control-plane routes (thin: checks, service call, projection)."""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Depends, Request, Response, Security
from sqlmodel import Session

from hub import apidocs as docs
from hub.auth.tokens import Principal
from hub.bodies import json_body, request_body_doc
from hub.db import SessionDep
from hub.idempotency.deps import idempotency_key
from hub.idempotency.service import IdempotentRequest, execute
from hub.ratelimit.service import Allowance, metered
from hub.responses import json_response
from hub.subscription import service
from hub.subscription.catalog_check import check_catalog
from hub.providers.endpoints import check_reachable
from hub.subscription.projection import as_read, as_subscription, timestamp
from hub.subscription.route_helpers import (
    CAN_DELETE, CAN_PATCH, CAN_POST, ID_AND_KEY, ID_ONLY, METERED_GET, METERED_READ_ERRORS, MUTATION_ERRORS,
    RATE_HEADERS, REPLAYED, IdPath, caller_of, raw_body,
)
from hub.subscription.schemas import (
    CreateSubscriptionRequest, CreateSubscriptionResponse, EndpointResponse, ListSubscriptionsResponse,
    PatchSubscriptionRequest, RotateSecretResponse, SubscriptionResponse,
)
from hub.subscription.validation import (
    SINK_KINDS, VERIFICATION_STATES, check_create, check_major, list_filters, refuse_inline_config,
    refuse_options_at_create,
)
from hub.subscription.values import NewSubscription

router = APIRouter(tags=["Subscriptions"], dependencies=[Security(docs.bearer_scheme)])

METERED_REVEAL = metered(Allowance.READS, CAN_POST)  # R-X-AUTH-07: the reveal needs the create permission
# One instance per gate, so a route's body reader and its key share FastAPI's per-request cache.
# ``replayed_on``: the statuses each operation declares X-Idempotency-Replayed on (R-X-IDEM-10).
KEY_CREATE = idempotency_key(CAN_POST, replayed_on=(201, 409))
KEY_ROTATE = idempotency_key(CAN_POST, replayed_on=(200,))
KEY_PATCH = idempotency_key(CAN_PATCH, replayed_on=(200,))
KEY_DELETE = idempotency_key(CAN_DELETE, replayed_on=(204,))
CREATE_BODY = json_body(CreateSubscriptionRequest, after=KEY_CREATE)
PATCH_BODY = json_body(PatchSubscriptionRequest, after=KEY_PATCH)

NO_STORE = {"Cache-Control": "private, no-store"}

CREATE_RESPONSES: dict[int | str, dict[str, Any]] = {
    **MUTATION_ERRORS,
    201: docs.success("Created; `signingSecret` is non-empty only for a webhook.",
                      headers={"Cache-Control": docs.NO_STORE, **REPLAYED}),
    409: docs.problem("`subscription_name_taken` (with `existing_id`), `idempotency_conflict` or "
                      "`idempotency_outcome_unrecorded`.", headers=REPLAYED, schema=docs.NAME_TAKEN_SCHEMA),
    422: docs.problem("`validation_error`, `inline_sink_config_forbidden`, `endpoint_blocked`, "
                      "`unknown_event_type` or `event_type_outside_nature`."),
    503: docs.problem("`AUT-0033` or `dns_unavailable` (nothing written; the same key can retry).",
                      headers={"Retry-After": docs.RETRY_AFTER}),
    504: docs.problem("`AUT-1021` or `dns_timeout` (nothing written; the same key can retry)."),
}


@router.post("/v1/subscriptions", operation_id="createSubscription", status_code=201,
             response_model=CreateSubscriptionResponse, responses=CREATE_RESPONSES,
             openapi_extra={**docs.parameters(docs.IDEMPOTENCY_KEY_PARAMETER),
                            **request_body_doc(CreateSubscriptionRequest)})
def create_subscription(
    principal: Annotated[Principal, Depends(CAN_POST)], key: Annotated[IdempotentRequest, Depends(KEY_CREATE)],
    body: Annotated[CreateSubscriptionRequest, Depends(CREATE_BODY)], raw: Annotated[bytes, Depends(raw_body)],
) -> Response:
    """Create a subscription for the caller's tenant (and delegated party)."""

    def prepare() -> NewSubscription:
        refuse_inline_config(raw)
        refuse_options_at_create(raw)
        new = check_create(body, principal)
        check_catalog(event_types=new.event_types, schema_major=new.schema_major,
                      event_majors=new.event_majors, origin=new.origin)
        check_reachable(new.sink_kind, new.endpoint)  # DNS before any write transaction
        return new

    def work(session: Session, new: NewSubscription) -> Response:
        sub, secret = service.create_subscription(session=session, caller=caller_of(principal), new=new)
        return json_response({"subscription": as_subscription(sub), "signingSecret": secret}, 201, headers=NO_STORE)

    return execute(key, work, prepare)


def _query(name: str, description: str, schema: dict[str, Any]) -> dict[str, Any]:
    return {"name": name, "in": "query", "required": False, "description": description, "schema": schema}


# Documented with the contract's types; read as plain strings so a bad value is the hub's own
# 422 validation_error (N1).
LIST_PARAMETERS = docs.parameters(
    _query("sink_kind", "Only this sink kind.", {"type": "string", "enum": list(SINK_KINDS)}),
    _query("limit", "Page size, default 50, clamped to 200; non-positive means the default.", {"type": "integer"}),
    _query("after", "The `id` of the previous page's last row (keyset cursor).", {"type": "string"}),
    _query("name", "Exact name, trimmed; a hit is a page of one.", {"type": "string"}),
    _query("enabled", "Only subscriptions whose `enabled` is this.", {"type": "boolean"}),
    _query("verification_state", "Only this verification state.",
           {"type": "string", "enum": list(VERIFICATION_STATES)}),
)


@router.get("/v1/subscriptions", operation_id="listSubscriptions", response_model=ListSubscriptionsResponse,
            openapi_extra=LIST_PARAMETERS,
            responses={**METERED_READ_ERRORS, 200: docs.success("A page of subscriptions.", headers=RATE_HEADERS),
                       422: docs.VALIDATION})
def list_subscriptions(
    request: Request, response: Response, principal: Annotated[Principal, Depends(METERED_GET)],
    session: SessionDep,
) -> Response:
    """The tenant's live subscriptions, newest first, keyset-paginated."""
    query = request.query_params
    filters = list_filters(sink_kind=query.get("sink_kind"), limit=query.get("limit"), after=query.get("after"),
                           name=query.get("name"), enabled=query.get("enabled"),
                           verification_state=query.get("verification_state"))
    rows, next_cursor = service.list_subscriptions(session=session, caller=caller_of(principal), filters=filters)
    return json_response({"subscriptions": [as_read(row) for row in rows], "next_cursor": next_cursor},
                         metered_by=response)


@router.get("/v1/subscriptions/{id}", operation_id="getSubscription", response_model=SubscriptionResponse,
            responses={**METERED_READ_ERRORS, 200: docs.success("The subscription.", headers=RATE_HEADERS),
                       404: docs.NOT_FOUND}, openapi_extra=ID_ONLY)
def get_subscription(
    response: Response, principal: Annotated[Principal, Depends(METERED_GET)], session: SessionDep, sub_id: IdPath,
) -> Response:
    """One subscription of the caller, or the uniform 404."""
    sub = service.get_subscription(session=session, caller=caller_of(principal), subscription_id=sub_id)
    return json_response({"subscription": as_read(sub)}, metered_by=response)


@router.delete("/v1/subscriptions/{id}", operation_id="deleteSubscription", status_code=204,
               response_class=Response, openapi_extra=ID_AND_KEY,
               responses={**MUTATION_ERRORS, 204: docs.success("Deleted, or already absent.", headers=REPLAYED)})
def delete_subscription(
    principal: Annotated[Principal, Depends(CAN_DELETE)], sub_id: IdPath,
    key: Annotated[IdempotentRequest, Depends(KEY_DELETE)],
) -> Response:
    """Soft-delete; idempotent 204 whatever the id (no existence oracle)."""

    def work(session: Session, _: None) -> Response:
        service.delete_subscription(session=session, caller=caller_of(principal), subscription_id=sub_id)
        return Response(status_code=204)

    return execute(key, work)


@router.patch("/v1/subscriptions/{id}", operation_id="updateSubscriptionSchemaMajor", response_class=Response,
              openapi_extra={**ID_AND_KEY, **request_body_doc(PatchSubscriptionRequest)},
              responses={**MUTATION_ERRORS, 200: docs.success("Re-pinned (no body).", headers=REPLAYED),
                         404: docs.NOT_FOUND,
                         422: docs.problem("`validation_error` or `unknown_event_type`.")})
def update_subscription_schema_major(
    principal: Annotated[Principal, Depends(CAN_PATCH)], sub_id: IdPath,
    key: Annotated[IdempotentRequest, Depends(KEY_PATCH)],
    body: Annotated[PatchSubscriptionRequest, Depends(PATCH_BODY)],
) -> Response:
    """Re-pin the schema major (null follows major 1) and optionally the timeout."""
    timeout_given = "timeout_ms" in body.model_fields_set

    def work(session: Session, _: None) -> Response:
        service.repin_schema_major(session=session, caller=caller_of(principal), subscription_id=sub_id,
                                   schema_major=body.schema_major, timeout_ms=body.timeout_ms,
                                   timeout_given=timeout_given)
        return Response(status_code=200)

    return execute(key, work, lambda: check_major(body.schema_major, "schema_major"))


@router.get("/v1/subscriptions/{id}/endpoint", operation_id="revealSubscriptionEndpoint",
            response_model=EndpointResponse, openapi_extra=ID_ONLY,
            responses={**METERED_READ_ERRORS, 404: docs.NOT_FOUND,
                       200: docs.success("The full destination.",
                                         headers={"Cache-Control": docs.NO_STORE, **RATE_HEADERS})})
def reveal_subscription_endpoint(
    response: Response, principal: Annotated[Principal, Depends(METERED_REVEAL)], session: SessionDep,
    sub_id: IdPath,
) -> Response:
    """The full, unmasked destination (needs subscriptions:post)."""
    sub = service.get_subscription(session=session, caller=caller_of(principal), subscription_id=sub_id)
    return json_response({"endpoint": sub.endpoint}, headers=NO_STORE, metered_by=response)


@router.post("/v1/subscriptions/{id}/secret/rotate", operation_id="rotateSubscriptionSecret",
             response_model=RotateSecretResponse, openapi_extra=ID_AND_KEY,
             responses={**MUTATION_ERRORS, 404: docs.NOT_FOUND,
                        200: docs.success("A new signing secret (shown only here and in replays).",
                                          headers={"Cache-Control": docs.NO_STORE, **REPLAYED}),
                        422: docs.problem("`no_secret_to_rotate`.")})
def rotate_subscription_secret(
    principal: Annotated[Principal, Depends(CAN_POST)], sub_id: IdPath,
    key: Annotated[IdempotentRequest, Depends(KEY_ROTATE)],
) -> Response:
    """Mint a new webhook signing secret; the previous one signs too for 24 h."""

    def work(session: Session, _: None) -> Response:
        sub = service.get_subscription(session=session, caller=caller_of(principal), subscription_id=sub_id,
                                       for_update=True)
        secret, overlap_until = service.rotate_secret(session=session, sub=sub)
        return json_response({"signingSecret": secret, "overlapUntil": timestamp(overlap_until)}, headers=NO_STORE)

    return execute(key, work)


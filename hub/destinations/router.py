"""The four routes that bring a queue destination to ``active`` (thin: parse, service call, answer)."""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Depends, Request, Response, Security
from sqlmodel import Session

from hub import apidocs as docs
from hub.auth.tokens import Principal
from hub.bodies import request_body_doc
from hub.config import get_settings
from hub.db import SessionDep
from hub.destinations import service
from hub.destinations.schemas import (
    CredentialRequest, DelegatedGrantRequest, GrantRequest, ProbeResult, SetupArtifactsResponse, grant_request,
    probe_result, sink_config,
)
from hub.idempotency.deps import idempotency_key
from hub.idempotency.service import IdempotentRequest, execute
from hub.responses import json_response
from hub.subscription.route_helpers import (
    CAN_POST, ID_AND_KEY, ID_ONLY, METERED_GET, METERED_READ_ERRORS, MUTATION_ERRORS, RATE_HEADERS, REPLAYED,
    IdPath, caller_of, raw_body,
)


def content_type(request: Request) -> str | None:
    return request.headers.get("content-type")


ContentType = Annotated[str | None, Depends(content_type)]

router = APIRouter(tags=["Subscriptions"], dependencies=[Security(docs.bearer_scheme)])

PROBE_ERRORS: dict[int | str, dict[str, Any]] = {
    401: docs.UNAUTHORIZED, 403: docs.FORBIDDEN, 404: docs.NOT_FOUND, 500: docs.INTERNAL,
    503: docs.SERVICE_UNAVAILABLE, 504: docs.GATEWAY_TIMEOUT,
}


@router.put("/v1/subscriptions/{id}/credential", operation_id="putSubscriptionCredential",
            response_model=ProbeResult, openapi_extra={**ID_ONLY, **request_body_doc(CredentialRequest)},
            responses={**PROBE_ERRORS, 200: docs.success("The probe ran; stored and `active` only on `ok`."),
                       400: docs.problem("`bad_request` (the body is not JSON)."),
                       422: docs.problem("`validation_error` or `endpoint_blocked`.")})
def put_subscription_credential(
    principal: Annotated[Principal, Depends(CAN_POST)], session: SessionDep, sub_id: IdPath,
    raw: Annotated[bytes, Depends(raw_body)], media_type: ContentType,
) -> Response:
    """Set or rotate a queue credential with probe-on-write; stored sealed only when the probe succeeds."""
    config = sink_config(raw, media_type)
    result = service.put_credential(session=session, caller=caller_of(principal), subscription_id=sub_id,
                                    config=config, settings=get_settings())
    return json_response(probe_result(result))


@router.get("/v1/subscriptions/{id}/setup-artifacts", operation_id="getSubscriptionSetupArtifacts",
            response_model=SetupArtifactsResponse, openapi_extra=ID_ONLY,
            responses={**METERED_READ_ERRORS, 404: docs.NOT_FOUND, 422: docs.VALIDATION,
                       200: docs.success("The delegated-grant artifacts.", headers=RATE_HEADERS)})
def get_subscription_setup_artifacts(
    response: Response, principal: Annotated[Principal, Depends(METERED_GET)], session: SessionDep, sub_id: IdPath,
) -> Response:
    """The trust policy and CloudFormation link for an AWS sink; the ExternalId is minted once."""
    built = service.setup_artifacts(session=session, caller=caller_of(principal), subscription_id=sub_id,
                                    settings=get_settings())
    return json_response(built.as_response(), metered_by=response)


@router.put("/v1/subscriptions/{id}/delegated-grant", operation_id="putSubscriptionDelegatedGrant",
            response_class=Response, openapi_extra={**ID_AND_KEY, **request_body_doc(DelegatedGrantRequest)},
            responses={**MUTATION_ERRORS, 404: docs.NOT_FOUND,
                       200: docs.success("The grant was stored (no body; the state is unchanged).", headers=REPLAYED),
                       422: docs.problem("`validation_error` or `endpoint_blocked`.")})
def put_subscription_delegated_grant(
    principal: Annotated[Principal, Depends(CAN_POST)], session: SessionDep, sub_id: IdPath,
    raw: Annotated[bytes, Depends(raw_body)],
    key: Annotated[IdempotentRequest, Depends(idempotency_key(CAN_POST, replayed_on=(200,)))],
    media_type: ContentType,
) -> Response:
    """Register the role ARN, region and destination an AWS sink is reached through."""
    caller = caller_of(principal)
    # The checks read on the request's session; the grant is written with the key's answer, in
    # the idempotency transaction ``execute`` opens and hands to ``work``.

    def prepare() -> GrantRequest:
        grant = grant_request(raw, media_type)
        service.check_grant(session=session, caller=caller, subscription_id=sub_id, grant=grant)
        return grant

    def work(transaction: Session, grant: GrantRequest) -> Response:
        service.register_grant(session=transaction, caller=caller, subscription_id=sub_id, grant=grant)
        return Response(status_code=200)

    return execute(key, work, prepare)


@router.post("/v1/subscriptions/{id}/verify", operation_id="verifySubscription", response_model=ProbeResult,
             openapi_extra=ID_ONLY,
             responses={**PROBE_ERRORS, 200: docs.success("The probe ran; the body carries its verdict."),
                        422: docs.problem("`probe_unsupported_for_sink_kind`.")})
def verify_subscription(principal: Annotated[Principal, Depends(CAN_POST)], session: SessionDep,
                        sub_id: IdPath) -> Response:
    """Re-run the destination probe; success activates and re-enables the subscription."""
    result = service.verify(session=session, caller=caller_of(principal), subscription_id=sub_id,
                            settings=get_settings())
    return json_response(probe_result(result))

"""The delivery log, resend and recover under ``/v1/subscriptions/{id}`` (thin: gates, service, projection)."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from typing import Annotated, Any

from fastapi import APIRouter, Depends, Request, Response, Security
from sqlmodel import Session
from starlette.background import BackgroundTask

from hub import apidocs as docs
from hub.auth.tokens import Principal
from hub.bodies import json_body, request_body_doc
from hub.db import SessionDep
from hub.deliverylog import redeliver, service
from hub.deliverylog.filters import JOB_OUTCOMES, JOB_STATES, MAX_LIMIT, log_filters
from hub.deliverylog.models import RecoveryState
from hub.deliverylog.schemas import (
    DeliveryJobResponse, DeliveryLogResponse, RecoverRequest, RecoveryResponse, as_job, as_recovery,
)
from hub.idempotency.deps import idempotency_key
from hub.idempotency.service import IdempotentRequest, execute
from hub.responses import json_response
from hub.subscription import service as subscriptions
from hub.subscription.route_helpers import (
    CAN_POST, METERED_GET, METERED_READ_ERRORS, MUTATION_ERRORS, RATE_HEADERS, REPLAYED, IdPath, caller_of,
)

router = APIRouter(tags=["Deliveries"], dependencies=[Security(docs.bearer_scheme)])

KEY_RESEND = idempotency_key(CAN_POST, replayed_on=(201,))
KEY_RECOVER = idempotency_key(CAN_POST, replayed_on=(202,))
RECOVER_BODY = json_body(RecoverRequest, after=KEY_RECOVER)
STALLED = timedelta(seconds=60)
# N77: a resend of an ordered subscription's event is sent outside its key's order; the answer says so here,
# since the contract-shaped job record has no field for it (and the replay keeps it: KEPT_HEADERS).
OUT_OF_ORDER_HEADER, OUT_OF_ORDER = "X-Delivery-Order", "out-of-order"
OUT_OF_ORDER_DOC = {"description": "`out-of-order` when the subscription is ordered (N77): the new job is sent "
                                   "at once, outside its key's order, and holds no later event back.",
                    "schema": {"type": "string", "enum": [OUT_OF_ORDER]}}  # a running recovery untouched this long has lost its runner (N51)


def _path(name: str, description: str) -> dict[str, Any]:
    return docs.path_parameter(name, {"type": "string", "format": "uuid"}, description)


def _query(name: str, description: str, schema: dict[str, Any]) -> dict[str, Any]:
    return {"name": name, "in": "query", "required": False, "description": description, "schema": schema}


JOB_ID = _path("job_id", "The delivery job's id (UUIDv7).")
RECOVERY_ID = _path("rid", "The recovery's id (UUIDv7).")
MOMENT = {"type": "string", "format": "date-time"}
# Read as plain strings and checked by the hub (N1), so a bad value is its own 422 validation_error.
LOG_PARAMETERS = docs.parameters(
    docs.SUBSCRIPTION_ID_PARAMETER,
    _query("state", f"Only jobs in these states, comma-separated: {', '.join(JOB_STATES)}.", {"type": "string"}),
    _query("outcome", f"Only jobs with these outcomes, comma-separated: {', '.join(JOB_OUTCOMES)} (N46).",
           {"type": "string"}),
    _query("event_type", "Only jobs whose event has this type.", {"type": "string"}),
    _query("event_id", "Only jobs whose event has this CloudEvent id.", {"type": "string"}),
    _query("since", "Only jobs created at or after this instant.", MOMENT),
    _query("until", "Only jobs created before this instant.", MOMENT),
    _query("limit", f"Page size, default 50, clamped to {MAX_LIMIT}; non-positive means the default.",
           {"type": "integer"}),
    _query("after", "The previous page's `next_cursor` (opaque).", {"type": "string"}),
)
READ_RESPONSES = {**METERED_READ_ERRORS, 404: docs.NOT_FOUND}
REFUSED = docs.problem("`subscription_disabled`, `subscription_not_active`, `event_not_retained` (resend), "
                       "`idempotency_conflict` or `idempotency_outcome_unrecorded`.", headers=REPLAYED)


def _job_id(request: Request) -> str:
    return str(request.path_params.get("job_id", ""))


def _recovery_id(request: Request) -> str:
    return str(request.path_params.get("rid", ""))


# Read from the path as sent (documented above); a malformed id is the uniform 404.
JobIdPath = Annotated[str, Depends(_job_id)]
RecoveryIdPath = Annotated[str, Depends(_recovery_id)]


def _sub(session: Session, principal: Principal, sub_id: str, *, for_update: bool = False) -> Any:
    return subscriptions.get_subscription(session=session, caller=caller_of(principal), subscription_id=sub_id,
                                          for_update=for_update)


@router.get("/v1/subscriptions/{id}/deliveries", operation_id="listSubscriptionDeliveries",
            summary="List a subscription's delivery jobs", response_model=DeliveryLogResponse,
            openapi_extra=LOG_PARAMETERS,
            responses={**READ_RESPONSES, 200: docs.success("A page of jobs, newest first.", headers=RATE_HEADERS),
                       400: docs.problem("`invalid_cursor`."), 422: docs.VALIDATION})
def list_deliveries(request: Request, response: Response, principal: Annotated[Principal, Depends(METERED_GET)],
                    session: SessionDep, sub_id: IdPath) -> Response:
    """The subscription's delivery jobs newest first, each with its event and attempts (keyset-paginated)."""
    sub = _sub(session, principal, sub_id)
    page = service.list_jobs(session=session, sub=sub, filters=log_filters(dict(request.query_params)))
    return json_response({"deliveries": [as_job(sub.id, job) for job in page.jobs],
                          "next_cursor": page.next_cursor}, metered_by=response)


@router.get("/v1/subscriptions/{id}/deliveries/{job_id}", operation_id="getSubscriptionDelivery",
            summary="Get one delivery job", response_model=DeliveryJobResponse,
            openapi_extra=docs.parameters(docs.SUBSCRIPTION_ID_PARAMETER, JOB_ID),
            responses={**READ_RESPONSES, 200: docs.success("The job and all its attempts.", headers=RATE_HEADERS)})
def get_delivery(response: Response, principal: Annotated[Principal, Depends(METERED_GET)], session: SessionDep,
                 sub_id: IdPath, job_id: JobIdPath) -> Response:
    """One job of the subscription with all its attempts, or the uniform 404."""
    sub = _sub(session, principal, sub_id)
    job = service.get_job(session=session, sub=sub, job_id=job_id)
    return json_response({"delivery": as_job(sub.id, job)}, metered_by=response)


@router.post("/v1/subscriptions/{id}/deliveries/{job_id}/resend", operation_id="resendSubscriptionDelivery",
             summary="Deliver a job's event again", status_code=201, response_model=DeliveryJobResponse,
             openapi_extra=docs.parameters(docs.SUBSCRIPTION_ID_PARAMETER, JOB_ID, docs.IDEMPOTENCY_KEY_PARAMETER),
             responses={**MUTATION_ERRORS, 404: docs.NOT_FOUND, 409: REFUSED,
                        201: docs.success("The new job, due now.",
                                          headers={**REPLAYED, OUT_OF_ORDER_HEADER: OUT_OF_ORDER_DOC})})
def resend_delivery(principal: Annotated[Principal, Depends(CAN_POST)], sub_id: IdPath, job_id: JobIdPath,
                    key: Annotated[IdempotentRequest, Depends(KEY_RESEND)]) -> Response:
    """A new job for the same event on the subscription's current destination and secrets."""

    def work(session: Session, _: None) -> Response:
        sub = _sub(session, principal, sub_id, for_update=True)
        new = redeliver.resend(session=session, sub=sub, job_id=job_id)
        job = service.get_job(session=session, sub=sub, job_id=new)
        headers = {"Location": f"/v1/subscriptions/{sub.id}/deliveries/{new}"}
        if sub.ordering is not None:  # N77: the new job is unordered, whatever its key
            headers[OUT_OF_ORDER_HEADER] = OUT_OF_ORDER
        return json_response({"delivery": as_job(sub.id, job)}, 201, headers=headers)

    return execute(key, work)


@router.post("/v1/subscriptions/{id}/recover", operation_id="recoverSubscriptionDeliveries",
             summary="Re-deliver the failed jobs of a time range", status_code=202,
             response_model=RecoveryResponse,
             openapi_extra={**docs.parameters(docs.SUBSCRIPTION_ID_PARAMETER, docs.IDEMPOTENCY_KEY_PARAMETER),
                            **request_body_doc(RecoverRequest)},
             responses={**MUTATION_ERRORS, 404: docs.NOT_FOUND, 409: REFUSED, 422: docs.VALIDATION,
                        202: docs.success("Accepted; the jobs are re-enqueued in batches.", headers=REPLAYED)})
def recover_deliveries(principal: Annotated[Principal, Depends(CAN_POST)], sub_id: IdPath,
                       key: Annotated[IdempotentRequest, Depends(KEY_RECOVER)],
                       body: Annotated[RecoverRequest, Depends(RECOVER_BODY)]) -> Response:
    """Accept a recovery of the range's failed, dead-lettered and disabled jobs (202 with its counts)."""
    accepted: list[Any] = []

    def work(session: Session, _: None) -> Response:
        sub = _sub(session, principal, sub_id, for_update=True)
        recovery = redeliver.accept_recovery(session=session, sub=sub, since=body.since, until=body.until,
                                             outcomes=body.outcomes)
        accepted.append(recovery.id)
        location = f"/v1/subscriptions/{sub.id}/recoveries/{recovery.id}"
        return json_response({"recovery": as_recovery(recovery)}, 202, headers={"Location": location})

    answer = execute(key, work)
    if accepted and answer.status_code == 202:  # committed just now, not a replay
        answer.background = BackgroundTask(redeliver.run_recovery, accepted[0])
    return answer


@router.get("/v1/subscriptions/{id}/recoveries/{rid}", operation_id="getSubscriptionRecovery",
            summary="Get a recovery's progress", response_model=RecoveryResponse,
            openapi_extra=docs.parameters(docs.SUBSCRIPTION_ID_PARAMETER, RECOVERY_ID),
            responses={**READ_RESPONSES, 200: docs.success("The recovery and its counts.", headers=RATE_HEADERS)})
def get_recovery(response: Response, principal: Annotated[Principal, Depends(METERED_GET)], session: SessionDep,
                 sub_id: IdPath, rid: RecoveryIdPath) -> Response:
    """One recovery of the subscription, or the uniform 404; a stalled one is resumed (N51)."""
    sub = _sub(session, principal, sub_id)
    recovery = redeliver.get_recovery(session=session, sub=sub, recovery_id=rid)
    answer = json_response({"recovery": as_recovery(recovery)}, metered_by=response)
    if recovery.state == RecoveryState.running and recovery.updated_at < datetime.now(UTC) - STALLED:
        answer.background = BackgroundTask(redeliver.run_recovery, recovery.id)
    return answer

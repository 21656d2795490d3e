"""``/admin/consumer/dead-letters``: browse and triage seed 000's dead-letter queue over HTTP (N76; thin).

Operator-only, like the stream: the caller must be allowed ``event-consumer-service:inspect-and-replay-all-dlq``
(401 / 403 otherwise, problem+json). Not metered: ``/admin`` reads are the operator's.
"""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, Depends, Request, Response, Security

from hub import apidocs as docs
from hub.bodies import json_body, request_body_doc
from hub.consumer.access import triage_operator
from hub.consumer.router import broker
from hub.consumer.triage import Action
from hub.deadletters import service
from hub.deadletters.schemas import DeadLetterList, TriageRequest, TriageResponse, as_dead_letter
from hub.responses import json_response

router = APIRouter(tags=["Dead-letter triage"], dependencies=[Security(docs.bearer_scheme)])

PATH = "/admin/consumer/dead-letters"
BROKER_DOWN = docs.problem("`broker_unavailable` or `AUT-0033`; transient.", headers={"Retry-After": docs.RETRY_AFTER})
ERRORS: dict[int | str, dict[str, Any]] = {**docs.OPERATOR_READ_ERRORS, 503: BROKER_DOWN}
LIMIT = docs.parameters({"name": "limit", "in": "query", "required": False, "schema": {"type": "integer"},
                         "description": f"How many from the head, default 50, clamped to {service.MAX_LIMIT}."})


async def operator(request: Request) -> str:
    return await triage_operator(request.headers.get("authorization"))


TRIAGE_BODY = json_body(TriageRequest, after=operator)


def _limit(raw: str | None) -> int:
    try:
        value = int(raw or "")
    except ValueError:
        return 50
    return min(value, service.MAX_LIMIT) if value > 0 else 50


@router.get(PATH, operation_id="listDeadLetteredEvents", summary="Browse the consumer dead-letter queue",
            response_model=DeadLetterList, openapi_extra=LIMIT, dependencies=[Depends(operator)],
            responses={**ERRORS, 422: docs.BAD_TEXT, 200: docs.success("The head of the queue; nothing is settled.")})
async def list_dead_letters(request: Request) -> Response:
    """The first messages of the dead-letter queue with reason, origin queue, delivery count and time."""
    found = await service.browse(broker=broker(request), limit=_limit(request.query_params.get("limit")))
    return json_response({"dead_letters": [as_dead_letter(item) for item in found]})


@router.post(f"{PATH}/actions", operation_id="triageDeadLetteredEvents", summary="REPLAY, DISCARD or LEAVE",
             response_model=TriageResponse, openapi_extra=request_body_doc(TriageRequest),
             responses={**ERRORS, 400: docs.problem("The body is not JSON: `bad_request`."), 422: docs.VALIDATION,
                        200: docs.success("Each action's outcome, as the triage stream reports it.")})
async def triage_dead_letters(request: Request, body: TriageRequest = Depends(TRIAGE_BODY)) -> Response:
    """Act on dead-lettered events by id, several at once; the stream's semantics and outcomes."""
    done = await service.triage(broker=broker(request),
                                actions=[(entry.id, Action[entry.action]) for entry in body.actions])
    return json_response({"outcomes": [{"id": key, "action": action.name, "outcome": result.outcome.name,
                                        "detail": result.detail} for key, action, result in done.results]})

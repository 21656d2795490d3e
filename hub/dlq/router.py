"""``GET /admin/dlq`` (listDLQObservations): operator forensics over the dead-letter observations."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Annotated

from fastapi import APIRouter, Depends, Request, Security
from pydantic import ConfigDict

from hub import apidocs as docs
from hub.auth.deps import require_operator
from hub.auth.tokens import Principal
from hub.db import SessionDep
from hub.dlq.models import DLQObservation as ObservationRow
from hub.dlq.sanitize import sanitize_error_message
from hub.dlq.service import DLQErrorClass, list_observations, parse_filters, parse_limit
from hub.schema_base import ClosedModel

router = APIRouter(tags=["Admin"], dependencies=[Security(docs.bearer_scheme)])


class DLQObservation(ClosedModel):
    model_config = ConfigDict(title="DLQObservation")

    source_topic: str
    error_class: str
    error_message: str
    retry_count: int
    first_failure_at: datetime
    producer_id: str
    observed_at: datetime
    tenant_id_raw: str


class DLQResponse(ClosedModel):
    model_config = ConfigDict(title="DLQResponse")

    observations: list[DLQObservation]
    nextCursor: str


def _utc(moment: datetime) -> datetime:
    return moment.astimezone(UTC)


def project(row: ObservationRow) -> DLQObservation:
    """The served projection; the message is sanitized again at read (R-listDLQObservations-04)."""
    return DLQObservation(
        source_topic=row.source_topic, error_class=row.error_class,
        error_message=sanitize_error_message(row.error_message), retry_count=row.retry_count,
        first_failure_at=_utc(row.first_failure_at), producer_id=row.producer_id,
        observed_at=_utc(row.observed_at), tenant_id_raw=row.tenant_id_raw,
    )


# N1: the filters are read as plain strings and validated by the hub, which answers with the
# contract's 400 codes; so they are documented here rather than declared as typed parameters
# (which would add a framework 422 the contract does not have).
_PARAMETERS = [
    {"name": "source_topic", "in": "query", "required": False, "schema": {"type": "string"},
     "description": "Exact topic the failed record arrived on, or `unknown`."},
    {"name": "error_class", "in": "query", "required": False,
     "schema": {"type": "string", "enum": [member.value for member in DLQErrorClass]},
     "description": "Transport error class."},
    {"name": "after", "in": "query", "required": False, "schema": {"type": "string", "format": "uuid"},
     "description": "Keyset cursor: the id (UUIDv7) of the last row of the previous page."},
]


@router.get(
    "/admin/dlq",
    operation_id="listDLQObservations",
    summary="List dead-letter observations",
    response_model=DLQResponse,
    responses={**docs.OPERATOR_READ_ERRORS,
               400: docs.problem("`invalid_error_class`, `invalid_source_topic` or `invalid_cursor`.")},
    openapi_extra={"parameters": _PARAMETERS},
)
def list_dlq_observations(
    request: Request, session: SessionDep, _: Annotated[Principal, Depends(require_operator)],
) -> DLQResponse:
    """A reverse-chronological, keyset-paginated page of dead-letter observations, across tenants."""
    query = request.query_params
    topic, error_class, cursor = parse_filters(source_topic=query.get("source_topic"),
                                               error_class=query.get("error_class"), after=query.get("after"))
    # ``limit`` is not in the contract; an operator may still ask for a smaller or larger page.
    page = list_observations(session=session, source_topic=topic, error_class=error_class, after=cursor,
                             limit=parse_limit(query.get("limit")))
    return DLQResponse(observations=[project(row) for row in page.observations], nextCursor=page.next_cursor)

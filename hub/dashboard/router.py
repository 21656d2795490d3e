"""``GET /v1/dashboard`` and ``GET /v1/dashboard/subscriptions``: thin; checks, service call, body.

Both routes need ``dashboard:get``, draw on the dashboard allowance (group C), answer with
``Cache-Control: private, no-store``, and read their query parameters as plain strings so every
refusal is the hub's own ``422 validation_error``.
"""

from __future__ import annotations

import hashlib
from typing import Annotated, Any

from fastapi import APIRouter, Depends, Request, Response, Security

from hub import apidocs as docs
from hub.auth.deps import require_permission
from hub.auth.tokens import Principal
from hub.config import get_settings
from hub.dashboard.queries import Scope
from hub.dashboard.schemas import DashboardSnapshot, NeedsAttentionPage, as_snapshot
from hub.dashboard.service import read_dashboard, read_needs_attention
from hub.db import SessionDep
from hub.ratelimit.service import Allowance, metered
from hub.responses import json_response
from hub.subscription.projection import timestamp

router = APIRouter(tags=["Dashboard"], dependencies=[Security(docs.bearer_scheme)])

METERED_DASHBOARD = metered(Allowance.DASHBOARD, require_permission("dashboard", "get"))
NO_STORE = {"Cache-Control": "private, no-store"}


def _query(name: str, description: str, schema: dict[str, Any]) -> dict[str, Any]:
    return {"name": name, "in": "query", "required": False, "description": description, "schema": schema}


INSTANT = {"type": "string", "format": "date-time"}
PERIOD_PARAMETERS = [
    _query("from", "Inclusive start, RFC 3339; defaults to `to` minus 24 hours.", INSTANT),
    _query("to", "Exclusive end, RFC 3339; defaults to the snapshot instant, never after it.", INSTANT),
    _query("window_hours", "Rolling width 1-720 ending at the snapshot; not with `from`/`to`.", {"type": "integer"}),
]
PAGE_PARAMETERS = [
    _query("limit", "Page size 1-50, default 20; out of range is refused.", {"type": "integer"}),
    _query("cursor", "The previous page's `next_cursor`; send the same `from` and `to`.", {"type": "string"}),
]
SUCCESS_HEADERS = {"Cache-Control": docs.NO_STORE, **docs.RATE_LIMIT_HEADERS}
ERRORS = {
    401: docs.UNAUTHORIZED, 403: docs.FORBIDDEN, 429: docs.RATE_LIMITED, 500: docs.INTERNAL,
    422: docs.problem("`validation_error`; a period before the retained history carries `details` "
                      "(`coverage_start`, `snapshot_at`).", schema=docs.COVERAGE_ERROR_SCHEMA),
    503: docs.problem("`AUT-0033` or `rate_limiter_unavailable` (with `Retry-After`), or `read_timeout` "
                      "(no `Retry-After`).", headers={"Retry-After": docs.RETRY_AFTER}),
    504: docs.GATEWAY_TIMEOUT,
}


def scope_of(principal: Principal) -> Scope:
    assert principal.tenant_id is not None
    return Scope(tenant_id=principal.tenant_id, delegated_scope=principal.delegated_scope)


def caller_binding(principal: Principal) -> str:
    """Who a cursor belongs to: tenant, delegated party and subject, hashed (never shown)."""
    identity = "\x00".join([principal.tenant_id or "", principal.delegated_scope or "", principal.subject])
    return hashlib.sha256(identity.encode()).hexdigest()


@router.get("/v1/dashboard", operation_id="getDashboard", summary="Get the operational dashboard snapshot",
            response_model=DashboardSnapshot, openapi_extra=docs.parameters(*PERIOD_PARAMETERS),
            responses={**ERRORS, 200: docs.success("The dashboard snapshot.", headers=SUCCESS_HEADERS)})
def get_dashboard(request: Request, response: Response,
                  principal: Annotated[Principal, Depends(METERED_DASHBOARD)], session: SessionDep) -> Response:
    """One consistent read: the census and backlog now, the period's counts and time series."""
    query = request.query_params
    snapshot = read_dashboard(session=session, scope=scope_of(principal), from_=query.get("from"), to=query.get("to"),
                              window_hours=query.get("window_hours"))
    body = as_snapshot(snapshot, pull_ceiling_hours=get_settings().dashboard_pull_ceiling_hours)
    return json_response(body, headers=NO_STORE, metered_by=response)


@router.get("/v1/dashboard/subscriptions", operation_id="getDashboardNeedsAttention",
            summary="List the subscriptions needing attention", response_model=NeedsAttentionPage,
            openapi_extra=docs.parameters(*PERIOD_PARAMETERS, *PAGE_PARAMETERS),
            responses={**ERRORS, 200: docs.success("A page of subscriptions needing attention.",
                                                    headers=SUCCESS_HEADERS)})
def get_dashboard_needs_attention(request: Request, response: Response,
                                  principal: Annotated[Principal, Depends(METERED_DASHBOARD)],
                                  session: SessionDep) -> Response:
    """A keyset page of the subscriptions that need an operator, ranked by severity."""
    query = request.query_params
    page = read_needs_attention(session=session, scope=scope_of(principal), caller=caller_binding(principal),
                                from_=query.get("from"), to=query.get("to"), window_hours=query.get("window_hours"),
                                limit=query.get("limit"), cursor=query.get("cursor"))
    body = {"snapshot_at": timestamp(page.snapshot_at), "window_start": timestamp(page.period.start),
            "window_end": timestamp(page.period.end), "items": page.items, "next_cursor": page.next_cursor}
    return json_response(body, headers=NO_STORE, metered_by=response)

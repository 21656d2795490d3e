"""The one place that turns errors into RFC 9457 ``application/problem+json`` responses."""

from __future__ import annotations

import logging
from http import HTTPStatus
from typing import Any

import orjson
from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import Response
from starlette.exceptions import HTTPException as StarletteHTTPException

from hub.config import get_settings
from hub.errors import HubError
from hub.logs import trace_id_var

log = logging.getLogger("hub.problems")
PROBLEM_JSON = "application/problem+json"


def status_title(status: int) -> str:
    try:
        return HTTPStatus(status).phrase
    except ValueError:
        return "Error"


def problem_response(
    status: int,
    *,
    code: str | None,
    detail: str,
    errors: list[dict[str, str]] | None = None,
    headers: dict[str, str] | None = None,
    extra: dict[str, Any] | None = None,
) -> Response:
    """A problem+json response; ``code`` None marks a framework rejection (type about:blank)."""
    body: dict[str, Any] = {
        "type": f"{get_settings().problem_type_base}{code}" if code else "about:blank",
        "title": status_title(status),
        "status": status,
        "detail": detail,
    }
    if code:
        body["code"] = code
    trace_id = trace_id_var.get()
    if trace_id:
        body["instance"] = trace_id
    if errors:
        body["errors"] = errors
    if extra:
        body.update(extra)
    return Response(orjson.dumps(body), status_code=status, media_type=PROBLEM_JSON, headers=headers)


def _from_hub_error(request: Request, exc: Exception) -> Response:
    assert isinstance(exc, HubError)
    if exc.status == 500 and exc.code == "internal_error":
        log_unhandled(request.scope, exc)  # R-X-PROB-06: the cause is logged, never returned
        return internal_error_response()
    return problem_response(
        exc.status, code=exc.code, detail=exc.detail, errors=exc.errors, headers=exc.headers, extra=exc.extra
    )


def _from_http_exception(_: Request, exc: Exception) -> Response:
    assert isinstance(exc, StarletteHTTPException)
    detail = exc.detail if isinstance(exc.detail, str) else status_title(exc.status_code)
    return problem_response(exc.status_code, code=None, detail=detail, headers=getattr(exc, "headers", None))


def _location(loc: tuple[Any, ...]) -> str:
    parts = [str(part) for part in loc if part not in ("body",)]
    return "/".join(parts) or "body"


def _from_validation_error(_: Request, exc: Exception) -> Response:
    """A parameter FastAPI validated itself: still the hub's ``validation_error`` (never code-less)."""
    assert isinstance(exc, RequestValidationError)
    if any(err.get("type") == "json_invalid" for err in exc.errors()):
        return problem_response(400, code="bad_request", detail="the body is not well-formed JSON")
    errors = [{"location": _location(tuple(err.get("loc", ()))), "message": str(err.get("msg", ""))}
              for err in exc.errors()]
    return problem_response(422, code="validation_error", detail="the request does not match its schema",
                            errors=errors)


def log_unhandled(scope: dict[str, Any], exc: BaseException) -> None:
    """Log the cause of a 500 with the trace id that the response carries in ``instance``."""
    log.error("unhandled error on %s %s", scope.get("method"), scope.get("path"), exc_info=exc)


def internal_error_response() -> Response:
    return problem_response(500, code="internal_error", detail="internal error")


def install_problem_handlers(app: FastAPI) -> None:
    app.add_exception_handler(HubError, _from_hub_error)
    app.add_exception_handler(StarletteHTTPException, _from_http_exception)
    app.add_exception_handler(RequestValidationError, _from_validation_error)

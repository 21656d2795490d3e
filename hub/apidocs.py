"""OpenAPI building blocks shared by the routers: problem responses, headers and parameters.

The contract declares its responses, headers and parameters once under ``components``; these
helpers describe the same things inline so the generated document says what the contract says.
"""

from __future__ import annotations

import json
from typing import Any

from fastapi import FastAPI
from fastapi.security import HTTPBearer

PROBLEM_JSON = "application/problem+json"

#: Documents the bearer JWT on every operation that uses it (``Security(bearer_scheme)``);
#: authentication itself is ``hub.auth.deps.authenticate``.
bearer_scheme = HTTPBearer(scheme_name="BearerAuth", bearerFormat="JWT", auto_error=False)

ERROR_SCHEMA: dict[str, Any] = {
    "type": "object",
    "description": "RFC 9457 problem document; `code` is absent only on an unknown route (404) or a "
                   "wrong method (405).",
    "properties": {
        "type": {"type": "string", "format": "uri"},
        "title": {"type": "string"},
        "status": {"type": "integer"},
        "detail": {"type": "string"},
        "code": {"type": "string"},
        "instance": {"type": "string"},
        "errors": {
            "type": "array",
            "items": {
                "type": "object",
                "properties": {"location": {"type": "string"}, "message": {"type": "string"}},
            },
        },
    },
    "required": ["title", "status"],
}

#: Every problem response names the one schema (``components.schemas.Problem``): inlined, it was copied
#: into each operation's every status, and the generated client had a model per copy (N96).
PROBLEM_REF: dict[str, Any] = {"$ref": "#/components/schemas/Problem"}

NAME_TAKEN_SCHEMA: dict[str, Any] = {
    "allOf": [
        PROBLEM_REF,
        {"type": "object", "properties": {"existing_id": {"type": "string", "format": "uuid"}}},
    ]
}

#: The dashboard's 422: ``details`` carries the bounds when a period starts before the retained history.
COVERAGE_ERROR_SCHEMA: dict[str, Any] = {
    "allOf": [
        PROBLEM_REF,
        {"type": "object", "properties": {"details": {
            "type": "object", "required": ["coverage_start", "snapshot_at"],
            "properties": {"coverage_start": {"type": "string", "format": "date-time"},
                           "snapshot_at": {"type": "string", "format": "date-time"}}}}},
    ]
}


def _header(description: str, schema: dict[str, Any]) -> dict[str, Any]:
    return {"description": description, "schema": schema}


IDEMPOTENCY_REPLAYED = _header(
    "Present and `true` when this response replays an earlier request with the same key.",
    {"type": "string", "enum": ["true"]},
)
NO_STORE = _header("Always `private, no-store`.", {"type": "string", "enum": ["private, no-store"]})
RETRY_AFTER = _header("Whole seconds to wait before a retry; at least 1.", {"type": "string"})
RATE_LIMIT_HEADERS: dict[str, Any] = {
    "X-RateLimit-Limit": _header("Requests per window of this route's allowance.", {"type": "integer"}),
    "X-RateLimit-Remaining": _header("Requests left in the current window; 0 on a refusal.", {"type": "integer"}),
    "X-RateLimit-Reset": _header("Unix seconds at which the current window ends.", {"type": "integer"}),
}


def problem(description: str, *, headers: dict[str, Any] | None = None,
            schema: dict[str, Any] | None = None) -> dict[str, Any]:
    """An error response documented as ``application/problem+json``."""
    doc: dict[str, Any] = {"description": description,
                           "content": {PROBLEM_JSON: {"schema": schema or PROBLEM_REF}}}
    if headers:
        doc["headers"] = headers
    return doc


UNAUTHORIZED = problem("Authentication failed: `AUT-0006`, `AUT-0007` or `unauthorized`.")
FORBIDDEN = problem("The credential may not do this: `AUT-1020` (detail names the permission) or `forbidden`.")
NOT_FOUND = problem("Absent, soft-deleted or another tenant's: a uniform `not_found`.")
VALIDATION = problem("A caller-correctable fault: `validation_error`.")
BAD_TEXT = problem("A text input holds a NUL byte or is not UTF-8: `validation_error`.")
BAD_REQUEST_OR_IDEMPOTENCY = problem("`bad_request`, or `missing_idempotency_key` (rejected before any write).")
IDEMPOTENCY_CONFLICT = problem("`idempotency_conflict` or `idempotency_outcome_unrecorded`.")
INTERNAL = problem("`internal_error` (detail scrubbed), or `idempotency_outcome_unrecorded` on a mutation.")
RATE_LIMITED = problem("The allowance is spent: `rate_limited`.",
                       headers={"Retry-After": RETRY_AFTER, **RATE_LIMIT_HEADERS})
SERVICE_UNAVAILABLE = problem("The access decision was not made: `AUT-0033`.", headers={"Retry-After": RETRY_AFTER})
METERED_UNAVAILABLE = problem("`AUT-0033` or `rate_limiter_unavailable`; transient.",
                              headers={"Retry-After": RETRY_AFTER})
GATEWAY_TIMEOUT = problem("The access decision timed out: `AUT-1021`.")

#: The refusals of a rate-metered read (allowances A, B and C).
METERED_READ_ERRORS: dict[int | str, dict[str, Any]] = {
    401: UNAUTHORIZED, 403: FORBIDDEN, 429: RATE_LIMITED, 500: INTERNAL, 503: METERED_UNAVAILABLE,
    504: GATEWAY_TIMEOUT,
}
#: The refusals of an operator (``/admin``) read; it is not metered.
OPERATOR_READ_ERRORS: dict[int | str, dict[str, Any]] = {
    401: UNAUTHORIZED, 403: FORBIDDEN, 500: INTERNAL, 503: SERVICE_UNAVAILABLE, 504: GATEWAY_TIMEOUT,
}


def success(description: str, *, headers: dict[str, Any] | None = None) -> dict[str, Any]:
    """A success response's description and headers (its body schema comes from the route)."""
    doc: dict[str, Any] = {"description": description}
    if headers:
        doc["headers"] = headers
    return doc


IDEMPOTENCY_KEY_PARAMETER: dict[str, Any] = {
    "name": "X-Idempotency",
    "in": "header",
    "required": True,
    "description": "A client-chosen key that makes this mutation at-most-once; the same key and request "
                   "replay the stored answer.",
    "schema": {"type": "string"},
}

SUBSCRIPTION_ID_PARAMETER: dict[str, Any] = {
    "name": "id",
    "in": "path",
    "required": True,
    "description": "The subscription's id (UUIDv7).",
    "schema": {"type": "string", "format": "uuid"},
}


def path_parameter(name: str, schema: dict[str, Any], description: str | None = None) -> dict[str, Any]:
    """A required path parameter's description, for routes that document their parameters themselves."""
    described = {"description": description} if description is not None else {}
    return {"name": name, "in": "path", "required": True, **described, "schema": schema}


def parameters(*declared: dict[str, Any]) -> dict[str, Any]:
    """``openapi_extra`` for parameters the hub reads itself (so it answers with its own codes)."""
    return {"parameters": list(declared)}


def _add_body_models(document: dict[str, Any]) -> None:
    """Put the models that ``hub.bodies.json_body`` reads, and the problem document, into ``components.schemas``."""
    from hub.bodies import documented_models

    schemas = document.setdefault("components", {}).setdefault("schemas", {})
    schemas["Problem"] = ERROR_SCHEMA
    for model in documented_models:
        schema = model.model_json_schema(ref_template="#/components/schemas/{model}")
        for name, definition in schema.pop("$defs", {}).items():
            schemas.setdefault(name, definition)
        schemas[model.__name__] = schema


def install_openapi(app: FastAPI) -> None:
    """Make ``app.openapi()`` describe the request bodies the hub parses itself."""
    build = app.openapi

    def openapi() -> dict[str, Any]:
        if app.openapi_schema is None:
            _add_body_models(build())
        return app.openapi_schema  # type: ignore[return-value]

    app.openapi = openapi  # type: ignore[method-assign]


def render_openapi(app: FastAPI) -> str:
    """The app's OpenAPI document as committed in ``schemas/openapi.json``: sorted keys, final newline."""
    return json.dumps(app.openapi(), indent=2, sort_keys=True, ensure_ascii=False) + "\n"

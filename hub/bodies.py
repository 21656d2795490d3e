"""The hub's own JSON request-body reader, so body checks run after the request's gates.

FastAPI parses a declared body before it solves any dependency, so a request with no token and a
malformed body would be refused for its body. A route instead takes its body from
``json_body(Model, after=gate)``: the gate (authentication, authorization, rate limit, idempotency
key) runs first, then the body is parsed (400 ``bad_request`` when it is not JSON) and validated
(422 ``validation_error`` naming each offending field).

The body schema still appears in the OpenAPI document: ``request_body_doc`` declares it on the
operation and ``documented_models`` lists the models that ``hub.apidocs`` adds to the components.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Any, TypeVar

import orjson
from fastapi import Depends, Request
from pydantic import BaseModel, ValidationError

from hub.errors import BadRequest, ValidationFailed

M = TypeVar("M", bound=BaseModel)

JSON_MEDIA_TYPE = "application/json"
documented_models: list[type[BaseModel]] = []


def _check_media_type(content_type: str | None) -> None:
    media_type, _, params = (content_type or "").partition(";")
    if media_type.strip().lower() != JSON_MEDIA_TYPE:
        raise BadRequest(f"the body must be sent as {JSON_MEDIA_TYPE}")
    for param in params.split(";"):
        name, _, value = param.partition("=")
        if name.strip().lower() == "charset" and value.strip().strip('"').lower() not in ("utf-8", "utf8"):
            raise BadRequest("the body must be UTF-8 JSON")


def parse_json(raw: bytes, content_type: str | None) -> Any:
    """The parsed JSON value of a non-empty body; 400 bad_request when it is not UTF-8 JSON."""
    _check_media_type(content_type)
    try:
        return orjson.loads(raw)  # orjson refuses invalid UTF-8 as well as malformed JSON
    except orjson.JSONDecodeError:
        raise BadRequest("the body is not well-formed UTF-8 JSON") from None


def _location(loc: tuple[Any, ...]) -> str:
    return "/".join(str(part) for part in loc) or "body"


def validation_errors(exc: ValidationError) -> list[dict[str, str]]:
    """One ``{location, message}`` entry per offending field (a JSON-pointer-like path)."""
    return [{"location": _location(tuple(error.get("loc", ()))), "message": str(error.get("msg", ""))}
            for error in exc.errors(include_url=False)]


def validate_body(model: type[M], raw: bytes, content_type: str | None) -> M:
    """The body as ``model``: 400 when it is not JSON, 422 validation_error when it breaks the schema."""
    if not raw.strip():
        raise ValidationFailed("a JSON body is required", errors=[{"location": "body", "message": "required"}])
    parsed = parse_json(raw, content_type)
    try:
        return model.model_validate(parsed)
    except ValidationError as exc:
        raise ValidationFailed("the body does not match its schema", errors=validation_errors(exc)) from None


def json_body(model: type[M], *, after: Callable[..., Any]) -> Callable[..., Awaitable[M]]:
    """A dependency yielding the validated body once the ``after`` dependency has admitted the request."""
    if model not in documented_models:
        documented_models.append(model)

    async def dependency(request: Request, _: Any = Depends(after)) -> M:
        return validate_body(model, await request.body(), request.headers.get("content-type"))

    dependency.__name__ = f"{model.__name__}_body"
    return dependency


def request_body_doc(model: type[BaseModel]) -> dict[str, Any]:
    """The ``requestBody`` of an operation whose body ``json_body`` reads."""
    return {"requestBody": {"required": True, "content": {
        JSON_MEDIA_TYPE: {"schema": {"$ref": f"#/components/schemas/{model.__name__}"}}}}}

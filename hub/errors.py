"""Domain errors: raised by services, turned into problem+json in one place (hub.problems)."""

from __future__ import annotations

from typing import Any


class HubError(Exception):
    """An error with a stable ``code`` the API answers with."""

    status: int = 500
    code: str = "internal_error"
    default_detail: str = "internal error"

    def __init__(
        self,
        detail: str | None = None,
        *,
        errors: list[dict[str, str]] | None = None,
        headers: dict[str, str] | None = None,
        extra: dict[str, Any] | None = None,
        code: str | None = None,
        status: int | None = None,
    ) -> None:
        super().__init__(detail or self.default_detail)
        self.detail = detail or self.default_detail
        self.errors = errors
        self.headers = headers or {}
        self.extra = extra or {}
        if code is not None:
            self.code = code
        if status is not None:
            self.status = status


class BadRequest(HubError):
    status, code, default_detail = 400, "bad_request", "the request is malformed"


class InvalidCursor(BadRequest):
    """A paging ``after`` the hub never issued; each list says what its cursors are in the detail."""

    code, default_detail = "invalid_cursor", "after is not a cursor this list issued"


class MissingIdempotencyKey(HubError):
    status, code, default_detail = 400, "missing_idempotency_key", "the X-Idempotency header is required"


class Unauthorized(HubError):
    status, code, default_detail = 401, "unauthorized", "no trusted tenant context"


class MissingToken(Unauthorized):
    code, default_detail = "AUT-0006", "a bearer token is required"


class InvalidToken(Unauthorized):
    code, default_detail = "AUT-0007", "the token is expired, invalid or malformed"


class Forbidden(HubError):
    status, code, default_detail = 403, "forbidden", "the credential may not do this"


class PermissionDenied(Forbidden):
    code = "AUT-1020"


class NotFound(HubError):
    status, code, default_detail = 404, "not_found", "the resource was not found"


class Conflict(HubError):
    status, code, default_detail = 409, "conflict", "the request conflicts with the current state"


class ValidationFailed(HubError):
    status, code, default_detail = 422, "validation_error", "the request is invalid"


def invalid(location: str, message: str) -> ValidationFailed:
    """A 422 validation_error naming one refused field."""
    return ValidationFailed(message, errors=[{"location": location, "message": message}])


class RateLimited(HubError):
    status, code, default_detail = 429, "rate_limited", "the allowance for this route is spent"


class ServiceUnavailable(HubError):
    status, code, default_detail = 503, "service_unavailable", "a dependency is unavailable; retry later"


class DecisionUnavailable(ServiceUnavailable):
    code, default_detail = "AUT-0033", "the access decision service did not decide; retry"


class DecisionTimeout(HubError):
    status, code, default_detail = 504, "AUT-1021", "the access decision service did not answer in time"


class RateLimiterUnavailable(ServiceUnavailable):
    code, default_detail = "rate_limiter_unavailable", "the rate limiter cannot check the allowance"


class ReadTimeout(ServiceUnavailable):
    """A health or dashboard read ran out of its time budget; no ``Retry-After`` (R-X-RATE-06)."""

    code, default_detail = "read_timeout", "the read ran out of its time budget; retry"

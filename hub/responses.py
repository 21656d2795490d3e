"""JSON answers of the API routes, carrying the rate-limit headers the meter set."""

from __future__ import annotations

from typing import Any

import orjson
from fastapi import Response

RATE_LIMIT_NAMES = ("x-ratelimit-limit", "x-ratelimit-remaining", "x-ratelimit-reset")


def json_response(payload: Any, status: int = 200, *, headers: dict[str, str] | None = None,
                  metered_by: Response | None = None) -> Response:
    """A JSON answer; ``metered_by`` carries the X-RateLimit-* headers the meter set."""
    merged = dict(headers or {})
    if metered_by is not None:
        merged.update({name: value for name, value in metered_by.headers.items() if name in RATE_LIMIT_NAMES})
    return Response(orjson.dumps(payload), status_code=status, media_type="application/json", headers=merged)

"""Per-tenant fixed-window allowances kept in PostgreSQL, so they hold across API processes."""

# No `from __future__ import annotations`: FastAPI must resolve the closure-local dependency in
# `metered` at runtime, which string annotations cannot do.

import math
import time
from collections.abc import Callable
from dataclasses import dataclass
from datetime import UTC, datetime
from enum import Enum

from fastapi import Depends, Response
from sqlalchemy import text
from sqlalchemy.exc import SQLAlchemyError

from hub.auth.tokens import Principal
from hub.config import get_settings
from hub.db import get_engine
from hub.errors import RateLimited, RateLimiterUnavailable


class Allowance(str, Enum):
    """R-X-RATE-01: A = catalog and subscription reads, B = pull inbox, C = dashboard."""

    READS = "reads"
    EVENTS = "events"
    DASHBOARD = "dashboard"


def allowance_limit(allowance: Allowance) -> int:
    settings = get_settings()
    return {
        Allowance.READS: settings.rate_limit_reads,
        Allowance.EVENTS: settings.rate_limit_events,
        Allowance.DASHBOARD: settings.rate_limit_dashboard,
    }[allowance]


@dataclass(frozen=True)
class Verdict:
    limit: int
    remaining: int
    reset_at: int
    allowed: bool

    def headers(self) -> dict[str, str]:
        return {
            "X-RateLimit-Limit": str(self.limit),
            "X-RateLimit-Remaining": str(self.remaining),
            "X-RateLimit-Reset": str(self.reset_at),
        }


_TAKE = text(
    """
    INSERT INTO rate_limit_windows (tenant_id, allowance, window_start, count)
    VALUES (:tenant, :allowance, :window_start, 1)
    ON CONFLICT (tenant_id, allowance) DO UPDATE SET
      count = CASE WHEN rate_limit_windows.window_start < EXCLUDED.window_start THEN 1
                   ELSE rate_limit_windows.count + 1 END,
      window_start = GREATEST(rate_limit_windows.window_start, EXCLUDED.window_start)
    RETURNING count, window_start
    """
)


def take(*, tenant_id: str, allowance: Allowance, now: float | None = None) -> Verdict:
    """Count one request against the tenant's allowance; raises RateLimiterUnavailable."""
    window = get_settings().rate_limit_window_seconds
    limit = allowance_limit(allowance)
    now = time.time() if now is None else now
    start = math.floor(now / window) * window
    params = {"tenant": tenant_id, "allowance": allowance.value,
              "window_start": datetime.fromtimestamp(start, UTC)}
    try:
        with get_engine().begin() as connection:
            # A counter lost to a database crash only lets a few more requests through, so the
            # commit does not wait for the WAL flush (one statement: no extra round trip).
            connection.execute(text("SET LOCAL statement_timeout = 2000; SET LOCAL synchronous_commit = off"))
            count, window_start = connection.execute(_TAKE, params).one()
    except SQLAlchemyError as exc:
        raise RateLimiterUnavailable(headers={"Retry-After": "1"}) from exc
    reset_at = int(window_start.timestamp()) + window
    return Verdict(limit=limit, remaining=max(limit - count, 0), reset_at=reset_at, allowed=count <= limit)


def metered(allowance: Allowance, principal_dependency: Callable[..., Principal]) -> Callable[..., Principal]:
    """A dependency that authorizes, then meters the route on ``allowance`` and sets the headers."""

    # A default-value Depends: a string annotation naming the closure variable (this module uses
    # postponed annotations) could not be resolved by FastAPI.
    def dependency(response: Response, principal: Principal = Depends(principal_dependency)) -> Principal:
        assert principal.tenant_id is not None
        verdict = take(tenant_id=principal.tenant_id, allowance=allowance)
        if not verdict.allowed:
            retry_after = max(1, verdict.reset_at - int(time.time()))
            raise RateLimited(headers={**verdict.headers(), "Retry-After": str(retry_after)})
        response.headers.update(verdict.headers())
        return principal

    return dependency

"""The HTTP transport of :func:`streaming_hub.connect`: idempotency keys and ``Retry-After``."""

from __future__ import annotations

import asyncio
import time
import uuid
from collections.abc import Awaitable, Callable
from datetime import datetime, timezone
from email.utils import parsedate_to_datetime

import httpx

IDEMPOTENCY = "X-Idempotency"
MUTATIONS = frozenset({"POST", "PUT", "PATCH", "DELETE"})
RETRIED_STATUSES = frozenset({429, 503})


def new_key() -> str:
    """A fresh idempotency key (a UUID): pass one to an operation to retry it yourself under the same key."""
    return str(uuid.uuid4())


def retry_after(response: httpx.Response) -> float | None:
    """The seconds a ``Retry-After`` header asks to wait (delta-seconds or an HTTP date); None without one."""
    value = response.headers.get("retry-after", "").strip()
    if not value:
        return None
    if value.isdigit():
        return float(value)
    try:
        when = parsedate_to_datetime(value)
    except (TypeError, ValueError):
        return None
    return max(0.0, (when - datetime.now(timezone.utc)).total_seconds())


class HubTransport(httpx.BaseTransport):
    """Puts a fresh ``X-Idempotency`` key on every mutation that carries none (an empty header counts as
    none), and sends a request again, with the same key, when the hub answers 429 or 503 with
    ``Retry-After``: at most RETRIES times, and only for waits up to MAX_WAIT seconds."""

    def __init__(self, inner: httpx.BaseTransport | None = None, *, retries: int = 3, max_wait: float = 60.0,
                 sleep: Callable[[float], None] = time.sleep) -> None:
        self.inner = inner or httpx.HTTPTransport()
        self.retries, self.max_wait, self.sleep = retries, max_wait, sleep

    def handle_request(self, request: httpx.Request) -> httpx.Response:
        with_key(request)
        for attempt in range(self.retries + 1):
            response = self.inner.handle_request(request)
            wait = wait_before_retry(self, response, attempt)
            if wait is None:
                return response
            response.read()
            response.close()
            self.sleep(wait)
        raise AssertionError("unreachable: the last attempt returns")

    def close(self) -> None:
        self.inner.close()


class AsyncHubTransport(httpx.AsyncBaseTransport):
    """:class:`HubTransport` for an ``httpx.AsyncClient``: the same keys and the same retries, awaited."""

    def __init__(self, inner: httpx.AsyncBaseTransport | None = None, *, retries: int = 3, max_wait: float = 60.0,
                 sleep: Callable[[float], Awaitable[None]] = asyncio.sleep) -> None:
        self.inner = inner or httpx.AsyncHTTPTransport()
        self.retries, self.max_wait, self.sleep = retries, max_wait, sleep

    async def handle_async_request(self, request: httpx.Request) -> httpx.Response:
        with_key(request)
        for attempt in range(self.retries + 1):
            response = await self.inner.handle_async_request(request)
            wait = wait_before_retry(self, response, attempt)
            if wait is None:
                return response
            await response.aread()
            await response.aclose()
            await self.sleep(wait)
        raise AssertionError("unreachable: the last attempt returns")

    async def aclose(self) -> None:
        await self.inner.aclose()


def with_key(request: httpx.Request) -> None:
    """A fresh ``X-Idempotency`` key on a mutation that carries none (an empty header counts as none)."""
    if request.method in MUTATIONS and not request.headers.get(IDEMPOTENCY, "").strip():
        request.headers[IDEMPOTENCY] = new_key()


def wait_before_retry(transport: HubTransport | AsyncHubTransport, response: httpx.Response, attempt: int) -> float | None:
    """How long to wait before sending again, or None to hand RESPONSE back (no retry, or none left)."""
    wait = retry_after(response) if response.status_code in RETRIED_STATUSES else None
    if wait is None or wait > transport.max_wait or attempt == transport.retries:
        return None
    return wait

"""The webhook sink: a signed HTTPS POST of the structured CloudEvent, over pooled checked connections.

One ``aiohttp`` session per process pools keep-alive connections per destination (host, port).
Every new connection is checked by the egress resolver at that moment (hub.egress.aio), so a
name that rebinds to a blocked address is refused as ``endpoint_blocked``. Redirects are never
followed (a 3xx is the ``redirect`` failure). At most ``webhook_max_response_bytes`` of an
answer are read; a longer body is dropped together with its connection.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Sequence
from functools import lru_cache
from typing import ClassVar

import aiohttp
from multidict import CIMultiDict
from yarl import URL

from hub import __version__
from hub.config import Settings
from hub.egress.aio import EgressRefused, check_literal, checked_session
from hub.sinks.base import AttemptResult, PreparedDelivery, elapsed_ms
from hub.providers.webhook.http_errors import (
    retry_after_seconds, status_class, status_detail, transport_class,
)
from hub.providers.webhook.signing import signature_header
from hub.providers.webhook.headers import reserved_header
from hub.sinks.vocabulary import ErrorClass, SinkKind

USER_AGENT = f"streaming-hub/{__version__}"
CONTENT_TYPE = "application/cloudevents+json"
_TERMINAL = frozenset({ErrorClass.http_410, ErrorClass.payload_too_large})


@lru_cache(maxsize=65_536)
def parse_endpoint(endpoint: str) -> URL:
    """The endpoint as a URL (cached: every delivery of a subscription uses the same string)."""
    url = URL(endpoint, encoded=False)
    if url.scheme != "https" or not url.host:
        raise ValueError("a webhook endpoint is an https:// URL")
    return url


@lru_cache(maxsize=256)
def request_timeout(seconds: float) -> aiohttp.ClientTimeout:
    """The whole-request timeout of a subscription's ``timeout_ms`` (immutable, so one object per value)."""
    return aiohttp.ClientTimeout(total=seconds)


SESSION_HEADERS = {"content-type": CONTENT_TYPE, "user-agent": USER_AGENT}  # the same on every request


def try_headers(delivery: PreparedDelivery, timestamp: int) -> CIMultiDict[str]:
    """The headers that change per try: the id is the delivery's, the timestamp this try's, the signature,
    the trace context (N59); then the subscription's static headers, never one of the hub's own (checked
    at write time too)."""
    headers: CIMultiDict[str] = CIMultiDict(
        (("webhook-id", delivery.delivery_id), ("webhook-timestamp", str(timestamp))))
    traceparent = delivery.outbound_traceparent
    if traceparent:
        headers["traceparent"] = traceparent
    for name, value in delivery.headers:
        if not reserved_header(name):
            headers.add(name, value)
    if delivery.signing_secrets:
        headers["webhook-signature"] = signature_header(
            delivery.signing_secrets, delivery.delivery_id, timestamp, delivery.body)
    return headers


def signed_headers(delivery: PreparedDelivery, timestamp: int) -> dict[str, str]:
    """Every request header of one try (the sink sends :data:`SESSION_HEADERS` as its session's defaults)."""
    return {**SESSION_HEADERS, **try_headers(delivery, timestamp)}


class WebhookSink:
    """Sends one prepared delivery per request; classifies every outcome, never raises."""

    kind: ClassVar[SinkKind] = SinkKind.webhook
    batch_size: ClassVar[int] = 1  # one request per delivery; concurrency comes from the engine's senders

    def __init__(self, *, settings: Settings) -> None:
        self._settings = settings
        self._session: aiohttp.ClientSession | None = None

    def _client(self) -> aiohttp.ClientSession:
        if self._session is None or self._session.closed:
            settings = self._settings
            self._session = checked_session(
                total_limit=max(1, settings.deliver_concurrency),
                per_host_limit=max(1, settings.deliver_per_host_concurrency),
                keepalive_seconds=settings.webhook_keepalive_seconds,
                extra_ca_bundle=settings.webhook_ca_bundle, headers=SESSION_HEADERS,
            )
        return self._session

    async def deliver(self, delivery: PreparedDelivery) -> AttemptResult:
        started = time.perf_counter()
        try:
            return await self._send(delivery, started)
        except Exception as exc:  # noqa: BLE001 - a sink classifies every failure instead of raising
            error_class, detail = transport_class(exc, delivery.timeout_seconds)
            return AttemptResult.failure(error_class, detail, latency_ms=elapsed_ms(started))

    async def _send(self, delivery: PreparedDelivery, started: float) -> AttemptResult:
        try:
            url = parse_endpoint(delivery.endpoint)
        except ValueError:
            return AttemptResult.failure(ErrorClass.endpoint_blocked, "the endpoint is not an https:// URL",
                                         terminal=True)
        check_literal(url.raw_host or "", url.port or 443)
        headers = try_headers(delivery, int(time.time()))  # a CIMultiDict: aiohttp merges it without converting
        timeout = request_timeout(delivery.timeout_seconds)
        async with self._client().post(url, data=delivery.body, headers=headers, allow_redirects=False,
                                       timeout=timeout) as response:
            await self._drain(response)
            status = response.status
            retry_after = response.headers.get("retry-after")
        latency = elapsed_ms(started)
        error_class = status_class(status)
        if error_class is None:
            return AttemptResult.success(status_code=status, latency_ms=latency)
        return AttemptResult.failure(
            error_class, status_detail(status), status_code=status, latency_ms=latency,
            retry_after_seconds=retry_after_seconds(retry_after) if status in (429, 503) else None,
            terminal=error_class in _TERMINAL)

    async def _drain(self, response: aiohttp.ClientResponse) -> None:
        """Read at most the configured bytes; a longer answer closes its connection instead of pooling it."""
        limit = self._settings.webhook_max_response_bytes
        length = response.content_length
        if length is not None and length <= limit:
            await response.read()
            return
        read = 0
        while read <= limit:
            chunk = await response.content.read(min(65_536, limit + 1 - read))
            if not chunk:
                return
            read += len(chunk)
        response.close()

    async def deliver_many(self, deliveries: Sequence[PreparedDelivery]) -> list[AttemptResult]:
        return list(await asyncio.gather(*(self.deliver(delivery) for delivery in deliveries)))

    async def close(self) -> None:
        if self._session is not None and not self._session.closed:
            await self._session.close()
        self._session = None


__all__ = ["CONTENT_TYPE", "USER_AGENT", "EgressRefused", "WebhookSink", "parse_endpoint", "signed_headers"]

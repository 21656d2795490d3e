"""The webhook sink: a signed HTTPS POST of the structured CloudEvent, over pooled checked connections.

Requests go through the compiled client ``pyreqwest`` (N79), one client per checked destination
address (hub.egress.pinned): a name is resolved and checked by the egress guard, and the client
connects only to the checked address, so a name that rebinds to a blocked address is never reached
there, and is refused as ``endpoint_blocked`` when it is checked again. Redirects are never
followed (a 3xx is the ``redirect`` failure). At most ``webhook_max_response_bytes`` of an answer
are read; a longer body is dropped together with its connection.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Sequence
from datetime import timedelta
from functools import lru_cache
from typing import ClassVar

from multidict import CIMultiDict
from pyreqwest.response import Response

from hub import __version__
from hub.config import Settings
from hub.egress.pinned import ClientOptions, HttpsEndpoint, Lease, PinnedClients, parse_https_endpoint
from hub.egress.refusal import EgressRefused
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


def parse_endpoint(endpoint: str) -> HttpsEndpoint:
    """The endpoint as the client sends it (cached: every delivery of a subscription uses the same string)."""
    return parse_https_endpoint(endpoint)


@lru_cache(maxsize=256)
def request_timeout(seconds: float) -> timedelta:
    """The whole-request timeout of a subscription's ``timeout_ms`` (one object per value)."""
    return timedelta(seconds=seconds)


SESSION_HEADERS = {"content-type": CONTENT_TYPE, "user-agent": USER_AGENT}  # the same on every request
# Sent by every client besides SESSION_HEADERS: nothing is decompressed, so ask for none.
CLIENT_HEADERS = (("content-type", CONTENT_TYPE), ("accept-encoding", "identity"))


def try_header_pairs(delivery: PreparedDelivery, timestamp: int) -> list[tuple[str, str]]:
    """The headers that change per try, as the client takes them: the id is the delivery's, the timestamp this
    try's, the trace context (N59); then the subscription's static headers, never one of the hub's own (checked
    at write time too); the signature last. A list of pairs: the client reads it without a mapping's lookups."""
    headers = [("webhook-id", delivery.delivery_id), ("webhook-timestamp", str(timestamp))]
    traceparent = delivery.outbound_traceparent
    if traceparent:
        headers.append(("traceparent", traceparent))
    for name, value in delivery.headers:
        if not reserved_header(name):
            headers.append((name, value))
    if delivery.signing_secrets:
        headers.append(("webhook-signature", signature_header(
            delivery.signing_secrets, delivery.delivery_id, timestamp, delivery.body)))
    return headers


def try_headers(delivery: PreparedDelivery, timestamp: int) -> CIMultiDict[str]:
    """:func:`try_header_pairs` as a case-insensitive multidict."""
    return CIMultiDict(try_header_pairs(delivery, timestamp))


def signed_headers(delivery: PreparedDelivery, timestamp: int) -> dict[str, str]:
    """Every request header of one try (the sink's clients send :data:`SESSION_HEADERS` as their defaults)."""
    return {**SESSION_HEADERS, **try_headers(delivery, timestamp)}


class WebhookSink:
    """Sends one prepared delivery per request; classifies every outcome, never raises."""

    kind: ClassVar[SinkKind] = SinkKind.webhook
    batch_size: ClassVar[int] = 1  # one request per delivery; concurrency comes from the engine's senders

    def __init__(self, *, settings: Settings) -> None:
        self._settings = settings
        self._clients: PinnedClients | None = None

    def _pool(self) -> PinnedClients:
        if self._clients is None:
            settings = self._settings
            self._clients = PinnedClients(ClientOptions(
                per_host_limit=max(1, settings.deliver_per_host_concurrency),
                keepalive_seconds=settings.webhook_keepalive_seconds, extra_ca_bundle=settings.webhook_ca_bundle,
                user_agent=USER_AGENT, headers=CLIENT_HEADERS))
        return self._clients

    async def deliver(self, delivery: PreparedDelivery) -> AttemptResult:
        started = time.perf_counter()
        try:
            return await self._send(delivery, started)
        except Exception as exc:  # noqa: BLE001 - a sink classifies every failure instead of raising
            error_class, detail = transport_class(exc, delivery.timeout_seconds)
            return AttemptResult.failure(error_class, detail, latency_ms=elapsed_ms(started))

    async def _send(self, delivery: PreparedDelivery, started: float) -> AttemptResult:
        try:
            endpoint = parse_endpoint(delivery.endpoint)
        except ValueError:
            return AttemptResult.failure(ErrorClass.endpoint_blocked, "the endpoint is not an https:// URL",
                                         terminal=True)
        lease = await self._pool().lease(endpoint)
        status, retry_after = await self._exchange(lease, endpoint, delivery)
        latency = elapsed_ms(started)
        error_class = status_class(status)
        if error_class is None:
            return AttemptResult.success(status_code=status, latency_ms=latency)
        return AttemptResult.failure(
            error_class, status_detail(status), status_code=status, latency_ms=latency,
            retry_after_seconds=retry_after_seconds(retry_after) if status in (429, 503) else None,
            terminal=error_class in _TERMINAL)

    async def _exchange(self, lease: Lease, endpoint: HttpsEndpoint,
                        delivery: PreparedDelivery) -> tuple[int, str | None]:
        """POST the delivery on the leased client; the status and Retry-After of the answer."""
        try:
            request = (lease.client.post(endpoint.url).headers(try_header_pairs(delivery, int(time.time())))
                       .body_bytes(delivery.body).timeout(request_timeout(delivery.timeout_seconds))
                       .build_streamed())
            async with request as response:
                whole = await self._drain(response)
                status, retry_after = response.status, response.get_header("retry-after")
                closing = response.get_header("connection")
        except BaseException:
            lease.failed()
            raise
        if whole and (closing is None or closing.lower() != "close"):
            lease.kept()
        else:
            lease.closed()
        return status, retry_after

    async def _drain(self, response: Response) -> bool:
        """Read at most the configured bytes; False when the answer was longer (its connection is then dropped)."""
        limit = self._settings.webhook_max_response_bytes
        reader = response.body_reader
        length = response.get_header("content-length")
        if length is not None and length.isdigit() and int(length) <= limit:
            await reader.bytes()
            return True
        read = 0
        while read <= limit:
            chunk = await reader.read(min(65_536, limit + 1 - read))
            if chunk is None:
                return True
            read += len(chunk)
        return False

    async def deliver_many(self, deliveries: Sequence[PreparedDelivery]) -> list[AttemptResult]:
        return list(await asyncio.gather(*(self.deliver(delivery) for delivery in deliveries)))

    async def close(self) -> None:
        if self._clients is not None:
            await self._clients.close()
        self._clients = None


__all__ = ["CONTENT_TYPE", "USER_AGENT", "EgressRefused", "WebhookSink", "parse_endpoint", "signed_headers", "try_header_pairs",
           "try_headers"]

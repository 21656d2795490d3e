"""The webhook provider: an ``https://`` URL, SSRF-checked; signed deliveries; ping and verify probes."""

from __future__ import annotations

import asyncio
import uuid
from collections.abc import Callable
from datetime import UTC, datetime
from typing import Any, ClassVar
from urllib.parse import urlsplit

import orjson

from hub.lifecycle.event_types import HUB_SOURCE
from hub.config import Settings
from hub.egress import check_webhook_url
from hub.providers.base import ProbeTarget, Provider
from hub.providers.webhook.headers import check_headers, open_headers
from hub.sinks.base import AttemptResult, PreparedDelivery
from hub.sinks.vocabulary import SinkKind
from hub.providers.webhook.headers import reserved_header
from hub.providers.webhook.sink import WebhookSink

PING_EVENT_TYPE = "hub.subscription.ping"


def probe_delivery(*, tenant_id: str, subscription_id: uuid.UUID, endpoint: str, secrets: tuple[str, ...],
                   timeout_seconds: float, headers: tuple[tuple[str, str], ...] = ()) -> PreparedDelivery:
    """A ping CloudEvent addressed to the subscription's endpoint, signed like any delivery."""
    probe_id = str(uuid.uuid4())
    attributes: dict[str, Any] = {
        "specversion": "1.0", "id": probe_id, "source": HUB_SOURCE, "type": PING_EVENT_TYPE,
        "time": datetime.now(UTC).isoformat().replace("+00:00", "Z"), "datacontenttype": "application/json",
        "tenantid": tenant_id,
    }
    body = orjson.dumps({**attributes, "data": {"subscriptionId": str(subscription_id)}})
    return PreparedDelivery(
        delivery_id=probe_id, job_id=None, tenant_id=tenant_id, subscription_id=subscription_id,
        sink_kind=SinkKind.webhook, endpoint=endpoint, body=body, attributes=attributes,
        timeout_seconds=timeout_seconds, signing_secrets=secrets, headers=headers)


def run_probe(delivery: PreparedDelivery, settings: Settings) -> AttemptResult:
    """Send the probe once on a fresh sink (from a worker thread, outside any event loop)."""
    from hub.providers.webhook.sink import WebhookSink

    async def send() -> AttemptResult:
        sink = WebhookSink(settings=settings)
        try:
            return await sink.deliver(delivery)
        finally:
            await sink.close()

    return asyncio.run(send())


class WebhookProvider(Provider):
    kind: ClassVar[SinkKind] = SinkKind.webhook
    label: ClassVar[str] = "Webhook"
    endpoint_label: ClassVar[str] = "Endpoint URL"
    endpoint_example: ClassVar[str] = "https://example.com/hooks"
    sink = WebhookSink
    signs = pings = verifies = takes_headers = True

    def check_headers(self, headers: list[dict[str, Any]] | None) -> list[dict[str, Any]] | None:
        """N54: RFC 9110 names and values, at most 20, none of the hub's own headers (the sink drops them too)."""
        if not headers:
            return None
        return check_headers(headers, reserved=reserved_header)

    def delivery_headers(self, stored: list[dict[str, Any]] | None, *, subscription_id: uuid.UUID | str,
                         opener: Callable[[str, str], str]) -> tuple[tuple[str, str], ...]:
        return open_headers(stored, subscription_id, opener)

    def check_reachable(self, endpoint: str) -> None:
        check_webhook_url(endpoint)

    def mask(self, endpoint: str) -> str:
        """Scheme and host (and a port other than 443), never the path or query."""
        parts = urlsplit(endpoint)
        host = parts.hostname
        if not parts.scheme or not host:
            return ""
        shown = f"[{host}]" if ":" in host else host
        if parts.port is not None and parts.port != 443:
            shown = f"{shown}:{parts.port}"
        return f"{parts.scheme.lower()}://{shown}"

    def destination_key(self, endpoint: str) -> str:
        """Host and port: the per-host concurrency limit covers every subscription to one receiver."""
        from hub.providers.webhook.sink import parse_endpoint

        try:
            parsed = parse_endpoint(endpoint)
        except ValueError:
            return super().destination_key(endpoint)
        return f"{parsed.host}:{parsed.port}"

    def probe(self, target: ProbeTarget, settings: Settings) -> AttemptResult:
        """The signed ping probe, sent by the sink code the delivery engine uses."""
        return run_probe(probe_delivery(
            tenant_id=target.tenant_id, subscription_id=target.subscription_id, endpoint=target.endpoint,
            secrets=target.signing_secrets, timeout_seconds=target.timeout_seconds, headers=target.headers), settings)


PROVIDER = WebhookProvider()

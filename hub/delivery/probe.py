"""A signed probe of a webhook endpoint, sent by the same sink code the delivery engine uses."""

from __future__ import annotations

import asyncio
import uuid
from datetime import UTC, datetime
from typing import Any

import orjson

from hub.config import get_settings
from hub.lifecycle.event_types import HUB_SOURCE
from hub.sinks.base import AttemptResult, PreparedDelivery
from hub.sinks.vocabulary import SinkKind
from hub.sinks.webhook import WebhookSink

PING_EVENT_TYPE = "hub.subscription.ping"


def probe_delivery(*, tenant_id: str, subscription_id: uuid.UUID, endpoint: str, secrets: tuple[str, ...],
                   timeout_seconds: float) -> PreparedDelivery:
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
        timeout_seconds=timeout_seconds, signing_secrets=secrets)


def run_probe(delivery: PreparedDelivery) -> AttemptResult:
    """Send the probe once on a fresh sink (from a worker thread, outside any event loop)."""

    async def send() -> AttemptResult:
        sink = WebhookSink(settings=get_settings())
        try:
            return await sink.deliver(delivery)
        finally:
            await sink.close()

    return asyncio.run(send())


def probe_result(result: AttemptResult) -> dict[str, Any]:
    """R-X-STATE-07/08, the contract's ProbeResult of ping, verify and the credential PUT: outcome,
    statusCode (the webhook's HTTP status; queue sinks always report 0), errorClass ("" on success),
    detail only on failure."""
    if result.ok:
        return {"outcome": "ok", "statusCode": result.status_code, "errorClass": ""}
    return {"outcome": "failed", "statusCode": result.status_code, "errorClass": result.error_class,
            "detail": result.detail or result.error_class}

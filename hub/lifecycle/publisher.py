"""The hub's own lifecycle events (``hub.*``), published like any producer's events.

``emit_lifecycle_event`` produces a CloudEvent (structured mode, source ``streaming-hub``) to
``<prefix>streaming-hub``; the ingestion workers consume that topic with the others, so the
event lands in the tenant's event log and reaches every subscription that asks for it (for
example ``hub.destination.disabled``). The record is encoded by the hub's codec and produced by the
backbone producer; the call returns once every in-sync replica acknowledged it.
"""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

from hub.backbone.outbound import OutboundEvent, to_record
from hub.backbone.producer import shared_producer
from hub.cloudevent.encode import STRUCTURED, KafkaRecord
from hub.config import get_settings
from hub.errors import ServiceUnavailable
from hub.ids import new_id
from hub.lifecycle.event_types import HUB_SOURCE, hub_topic

SCHEMA_VERSION = "1.0.0"


class LifecycleEventNotPublished(ServiceUnavailable):
    code, default_detail = "lifecycle_event_not_published", "the lifecycle event was not acknowledged by Kafka"


def build_lifecycle_event(
    *, tenant_id: str, event_type: str, data: dict[str, Any], delegated_scope: str | None = None,
    event_id: str | None = None,
) -> KafkaRecord:
    """The record of a lifecycle fact; ``event_id`` makes a retried emit deduplicate (N19)."""
    if not event_type.startswith("hub."):
        raise ValueError("lifecycle event types start with 'hub.'")
    return to_record(OutboundEvent(
        source=HUB_SOURCE, event_type=event_type, tenant_id=tenant_id, event_id=event_id or str(new_id()),
        time=datetime.now(UTC), data=data, schema_version=SCHEMA_VERSION, partition_key=tenant_id,
        delegated_scope=delegated_scope or None), mode=STRUCTURED)


def emit_lifecycle_event(
    *, tenant_id: str, event_type: str, data: dict[str, Any], delegated_scope: str | None = None,
    event_id: str | None = None, timeout_seconds: float = 10.0,
) -> str:
    """Publish a ``hub.*`` event for ``tenant_id`` and wait for the broker; returns the event id."""
    record = build_lifecycle_event(tenant_id=tenant_id, event_type=event_type, data=data,
                                   delegated_scope=delegated_scope, event_id=event_id)
    result = shared_producer().publish(hub_topic(get_settings()), [record], timeout_seconds=timeout_seconds)
    if not result.durable:
        raise LifecycleEventNotPublished()
    return record.event.ce_id

"""The hub's own lifecycle events (``hub.*``), published like any producer's events.

``emit_lifecycle_event`` produces a CloudEvent (structured mode, source ``streaming-hub``) to
``<prefix>streaming-hub``; the ingestion workers consume that topic with the others, so the
event lands in the tenant's event log and reaches every subscription that asks for it (for
example ``hub.destination.disabled``). The call returns once the broker acknowledged the record.
"""

from __future__ import annotations

import threading
from datetime import UTC, datetime
from typing import Any

from cloudevents.core.bindings.kafka import to_structured_event
from cloudevents.core.v1.event import CloudEvent
from confluent_kafka import KafkaError, Producer

from hub.catalog.lifecycle import HUB_SOURCE, hub_topic
from hub.config import get_settings
from hub.errors import ServiceUnavailable
from hub.ids import new_id
from hub.kafka import ensure_topics, make_producer

SCHEMA_VERSION = "1.0.0"

_lock = threading.Lock()
_producer: Producer | None = None
_ready_topics: set[str] = set()


class LifecycleEventNotPublished(ServiceUnavailable):
    code, default_detail = "lifecycle_event_not_published", "the lifecycle event was not acknowledged by Kafka"


def _client(topic: str) -> Producer:
    global _producer
    with _lock:
        if _producer is None:
            _producer = make_producer()
        if topic not in _ready_topics:
            ensure_topics([topic])
            _ready_topics.add(topic)
        return _producer


def build_lifecycle_event(
    *, tenant_id: str, event_type: str, data: dict[str, Any], delegated_scope: str | None = None,
    event_id: str | None = None,
) -> CloudEvent:
    """The CloudEvent for a lifecycle fact; ``event_id`` makes a retried emit deduplicate (N19)."""
    if not event_type.startswith("hub."):
        raise ValueError("lifecycle event types start with 'hub.'")
    attributes: dict[str, Any] = {
        "specversion": "1.0", "id": event_id or str(new_id()), "source": HUB_SOURCE, "type": event_type,
        "time": datetime.now(UTC), "datacontenttype": "application/json", "tenantid": tenant_id,
        "schemaversion": SCHEMA_VERSION, "partitionkey": tenant_id,
    }
    if delegated_scope:
        attributes["delegatedscope"] = delegated_scope
    return CloudEvent(attributes=attributes, data=data)


def emit_lifecycle_event(
    *, tenant_id: str, event_type: str, data: dict[str, Any], delegated_scope: str | None = None,
    event_id: str | None = None, timeout_seconds: float = 10.0,
) -> str:
    """Publish a ``hub.*`` event for ``tenant_id`` and wait for the broker; returns the event id."""
    event = build_lifecycle_event(tenant_id=tenant_id, event_type=event_type, data=data,
                                  delegated_scope=delegated_scope, event_id=event_id)
    message = to_structured_event(event)
    topic = hub_topic(get_settings())
    producer = _client(topic)
    outcome: dict[str, KafkaError | None | bool] = {"done": False, "error": None}

    def delivered(error: KafkaError | None, _message: object) -> None:
        outcome["done"], outcome["error"] = True, error

    producer.produce(topic, key=message.key, value=message.value, headers=message.headers, on_delivery=delivered)
    producer.flush(timeout_seconds)
    if not outcome["done"] or outcome["error"] is not None:
        raise LifecycleEventNotPublished()
    return event.get_id()

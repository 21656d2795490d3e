"""What ingest feeds the consumer service after it stores a batch: a wake-up for the relay.

The relay (hub.consumer.relay) reads the event log itself, from its own cursor per tenant, so this
projection writes nothing: it notifies :data:`STORED_CHANNEL` once per tenant of the batch,
delivered by PostgreSQL at COMMIT, so queues hear of a stored event at once rather than at the
relay's next poll.
"""

from __future__ import annotations

from typing import Any

STORED_CHANNEL = "hub_consumer_stored"
# The payload of a queue's creation on STORED_CHANNEL: relays forget which tenants they found without
# queues (N88). No tenant has an empty id; if one had, its notification would only make relays look again.
QUEUES_CHANGED = ""


def notify_relay(cursor: Any, events: list[Any]) -> int:
    """Notify the relay of each tenant with events in this batch; the number of tenants."""
    tenants = sorted({event.tenant_id for event in events})
    for tenant in tenants:
        cursor.execute("SELECT pg_notify(%s, %s)", (STORED_CHANNEL, tenant))
    return len(tenants)

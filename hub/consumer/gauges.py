"""The consumer service's gauges (N72): how far the relay is behind the event log, and how deep the
consumer queues are. ``hub consumer-relay`` measures them (workers/consumer_relay.py); the alerts and
the dashboard of deploy/observability read them."""

from __future__ import annotations

import asyncio

from sqlalchemy import text

from hub.consumer import topology
from hub.consumer.topology import ConsumerRabbit
from hub.db import session_scope
from hub.metrics import DEEPEST_QUEUE, QUEUED_MESSAGES, RELAY_LAG

# Only tenants that still have queues: a tenant's cursor stays behind while the relay passes it over as idle (N88).
LAG_SQL = """
SELECT COALESCE(SUM(GREATEST(t.last_seq - c.last_seq, 0)), 0)
  FROM consumer_relay_cursors AS c JOIN tenant_counters AS t ON t.tenant_id = c.tenant_id
 WHERE c.tenant_id IN (SELECT tenant_id FROM consumer_queues)
"""
QUEUES_SQL = "SELECT queue_id FROM consumer_queues ORDER BY queue_id"


def relay_lag() -> int:
    """Events stored for tenants with consumer queues and not yet relayed, summed over the tenants."""
    with session_scope() as session:
        return int(session.execute(text(LAG_SQL)).scalar_one())


def _queue_ids() -> list[str]:
    with session_scope() as session:
        return [row[0] for row in session.execute(text(QUEUES_SQL)).all()]


async def measure(broker: ConsumerRabbit) -> None:
    """Set the relay's lag and the queues' depth (all queues, and the deepest) from the database and the
    broker; a queue the broker no longer has counts as empty."""
    RELAY_LAG.set(await asyncio.to_thread(relay_lag))
    depths = [await topology.queue_messages(broker, queue_id) or 0
              for queue_id in await asyncio.to_thread(_queue_ids)]
    QUEUED_MESSAGES.set(sum(depths))
    DEEPEST_QUEUE.set(max(depths, default=0))

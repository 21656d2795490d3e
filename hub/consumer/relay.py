"""``hub consumer-relay``: every stored event of a tenant with consumer queues, onto its exchange (N38).

The event log is the outbox. Per tenant the relay keeps ``consumer_relay_cursors.last_seq``; it reads
the next events after it (commit order is seq order within a tenant, so nothing is skipped), publishes
each to the tenant's topic exchange under its routing key with publisher confirms, and only then moves
the cursor, in the transaction that holds the cursor row (``FOR UPDATE SKIP LOCKED``: several relays
share the tenants, one at a time each). A crash between confirm and cursor commit republishes: consumer
queues are at-least-once. The broker routes; the relay sends each event once, whatever the queue count.

This module is the relay's work; its process loop (listening for ingest's notification, reconnecting)
is the worker ``workers/consumer_relay.py``.
"""

from __future__ import annotations

import psycopg

from hub import tracing
from hub.config import get_settings
from hub.consumer.outlet import Outlet

TENANTS_SQL = "SELECT DISTINCT tenant_id FROM consumer_queues ORDER BY tenant_id"
CURSOR_SQL = "SELECT last_seq FROM consumer_relay_cursors WHERE tenant_id = %s FOR UPDATE SKIP LOCKED"
EVENTS_SQL = """
SELECT seq, event_type, source, attributes, data, event_time, received_at FROM event_log
 WHERE tenant_id = %s AND seq > %s ORDER BY seq LIMIT %s
"""
ADVANCE_SQL = "UPDATE consumer_relay_cursors SET last_seq = %s WHERE tenant_id = %s"
START_CURSOR_SQL = """
INSERT INTO consumer_relay_cursors (tenant_id, last_seq)
SELECT CAST(%(tenant)s AS varchar), COALESCE((SELECT last_seq FROM tenant_counters WHERE tenant_id = CAST(%(tenant)s AS varchar)), 0)
ON CONFLICT (tenant_id) DO NOTHING
"""


def start_cursor(connection, tenant_id: str) -> None:
    """Give a tenant's first queue a relay cursor at the end of its log: queues get what is stored after.
    CONNECTION is a SQLAlchemy connection (the service's session's)."""
    connection.exec_driver_sql(START_CURSOR_SQL, {"tenant": tenant_id})


async def relay_tenant(conn: psycopg.AsyncConnection, outlet: Outlet, tenant_id: str) -> int:
    """Publish the tenant's next page of events; how many (0: nothing new, or another relay has it)."""
    async with conn.transaction():
        cursor = await conn.execute(CURSOR_SQL, (tenant_id,))
        found = await cursor.fetchone()
        if found is None:
            return 0
        rows = await (await conn.execute(EVENTS_SQL, (tenant_id, found[0], get_settings().consumer_relay_batch)))\
            .fetchall()
        if not rows:
            return 0
        with tracing.linked_span("consumer relay page", lambda: _producer_contexts(rows)):
            await outlet.publish(tenant_id, rows)
        await conn.execute(ADVANCE_SQL, (rows[-1][0], tenant_id))
    return len(rows)


async def relay_round(conn: psycopg.AsyncConnection, outlet: Outlet, tenants: set[str] | None = None) -> int:
    """Drain TENANTS page by page (None: every tenant with queues); events published."""
    if tenants is None:
        tenants = {row[0] for row in await (await conn.execute(TENANTS_SQL)).fetchall()}
        await conn.commit()
    total = 0
    for tenant_id in sorted(tenants):
        while (published := await relay_tenant(conn, outlet, tenant_id)) > 0:
            total += published
    return total


def _producer_contexts(rows: list[tuple]) -> list[str]:
    """The ``traceparent`` extensions of a page's events (the attributes are each row's fourth column)."""
    return [traceparent for row in rows if (traceparent := (row[3] or {}).get("traceparent"))]

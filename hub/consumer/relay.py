"""``hub consumer-relay``: every stored event of a tenant with consumer queues, onto its exchange (N38).

The event log is the outbox. Per tenant the relay keeps ``consumer_relay_cursors.last_seq``; it reads
the next events after it (commit order is seq order within a tenant, so nothing is skipped), publishes
each to the tenant's topic exchange under its routing key with publisher confirms, and only then moves
the cursor, in the transaction that holds the cursor row (``FOR UPDATE SKIP LOCKED``: several relays
share the tenants, one at a time each). A crash between confirm and cursor commit republishes: consumer
queues are at-least-once. The broker routes; the relay sends each event once, whatever the queue count.
"""

from __future__ import annotations

import asyncio
import logging

import orjson
import psycopg
from psycopg.types.json import set_json_loads

from hub.config import get_settings
from hub.consumer.outlet import Outlet
from hub.consumer.projection import STORED_CHANNEL

log = logging.getLogger("hub.consumer.relay")

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


async def run_relay(stop: asyncio.Event, *, url: str | None = None) -> None:
    """Relay until STOP is set; a fault of PostgreSQL or RabbitMQ waits and starts the round again."""
    from hub.db import libpq_url

    while not stop.is_set():
        try:
            async with await psycopg.AsyncConnection.connect(url or libpq_url(), autocommit=False,
                                                             application_name="hub-consumer-relay") as conn:
                set_json_loads(orjson.loads, conn)  # the stdlib's loads cost more than the rest of a row
                listener = await psycopg.AsyncConnection.connect(url or libpq_url(), autocommit=True)
                async with listener:
                    await listener.execute(f"LISTEN {STORED_CHANNEL}")
                    outlet = await Outlet.open()
                    try:
                        await _relay_loop(stop, conn, listener, outlet, get_settings().consumer_relay_poll_seconds)
                    finally:
                        await outlet.close()
        except Exception as exc:  # noqa: BLE001 (a lost broker or database, whatever it raises: start over)
            log.warning("consumer relay fault; retrying", extra={"fields": {"error": type(exc).__name__}})
            await _pause(stop, 1.0)


async def _relay_loop(stop, conn, listener, outlet: Outlet, poll_seconds: float) -> None:
    notified: set[str] | None = None  # None: look at every tenant (at start, and when a poll ran out)
    while not stop.is_set():
        if outlet.is_closed:
            raise ConnectionError("the relay's channel closed")  # the broker went away: reconnect
        await relay_round(conn, outlet, notified)
        # A notification names the tenant whose batch was stored; the rest wait in psycopg's backlog.
        notified = {notify.payload async for notify in listener.notifies(timeout=poll_seconds, stop_after=1)} or None


async def _pause(stop: asyncio.Event, seconds: float) -> None:
    try:
        async with asyncio.timeout(seconds):
            await stop.wait()
    except TimeoutError:
        pass

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

import aio_pika
import psycopg
from aio_pika.abc import ExchangeType

from hub.config import get_settings
from hub.consumer import messages
from hub.consumer.filters import routing_key
from hub.consumer.projection import STORED_CHANNEL
from hub.consumer.topology import Broker, tenant_exchange

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


def amqp_message(row: tuple) -> aio_pika.Message:
    seq, event_type, source, attributes, data, event_time, received_at = row
    event = messages.from_log_row(event_type, source, attributes, data, event_time, received_at)
    headers = {messages.SEQ_HEADER: seq}
    if event.resource_id:
        headers[messages.RESOURCE_HEADER] = event.resource_id
    return aio_pika.Message(messages.encode(event), content_type="application/json", headers=headers,
                            delivery_mode=aio_pika.DeliveryMode.PERSISTENT)


async def relay_tenant(conn: psycopg.AsyncConnection, broker: Broker, channel, tenant_id: str) -> int:
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
        exchange = await channel.declare_exchange(tenant_exchange(tenant_id), ExchangeType.TOPIC, durable=True)
        await asyncio.gather(*(exchange.publish(amqp_message(row), routing_key=routing_key(row[1], _resource(row)))
                               for row in rows))
        await conn.execute(ADVANCE_SQL, (rows[-1][0], tenant_id))
    return len(rows)


def _resource(row: tuple) -> str | None:
    attributes = row[3] or {}
    value = attributes.get("resourceid")
    return value if isinstance(value, str) else None


async def relay_round(conn: psycopg.AsyncConnection, broker: Broker, channel) -> int:
    """One pass over every tenant with queues, each drained page by page; events published."""
    tenants = [row[0] for row in await (await conn.execute(TENANTS_SQL)).fetchall()]
    await conn.commit()
    total = 0
    for tenant_id in tenants:
        while (published := await relay_tenant(conn, broker, channel, tenant_id)) > 0:
            total += published
    return total


async def run_relay(stop: asyncio.Event, *, url: str | None = None, broker: Broker | None = None) -> None:
    """Relay until STOP is set; a fault of PostgreSQL or RabbitMQ waits and starts the round again."""
    from hub.db import libpq_url

    broker = broker or Broker()
    settings = get_settings()
    while not stop.is_set():
        try:
            async with await psycopg.AsyncConnection.connect(url or libpq_url(), autocommit=False,
                                                             application_name="hub-consumer-relay") as conn:
                listener = await psycopg.AsyncConnection.connect(url or libpq_url(), autocommit=True)
                async with listener:
                    await listener.execute(f"LISTEN {STORED_CHANNEL}")
                    channel = await broker.channel(confirms=True)
                    await _relay_loop(stop, conn, listener, broker, channel, settings.consumer_relay_poll_seconds)
        except Exception as exc:  # noqa: BLE001 (a lost broker or database, whatever it raises: start over)
            log.warning("consumer relay fault; retrying", extra={"fields": {"error": type(exc).__name__}})
            await _pause(stop, 1.0)
    await broker.close()


async def _relay_loop(stop, conn, listener, broker, channel, poll_seconds: float) -> None:
    while not stop.is_set():
        if channel.is_closed:
            raise ConnectionError("the relay's channel closed")  # the broker went away: reconnect
        await relay_round(conn, broker, channel)
        async for _ in listener.notifies(timeout=poll_seconds, stop_after=1):
            pass  # a batch was stored (or the poll ran out): look again


async def _pause(stop: asyncio.Event, seconds: float) -> None:
    try:
        async with asyncio.timeout(seconds):
            await stop.wait()
    except TimeoutError:
        pass

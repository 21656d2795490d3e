"""``hub consumer-relay``: every stored event of a tenant with consumer queues, onto its exchange (N38).

The event log is the outbox. Per tenant the relay keeps ``consumer_relay_cursors.last_seq``; it reads
the next events after it (commit order is seq order within a tenant, so nothing is skipped), publishes
each to the tenant's topic exchange under its routing key with publisher confirms, and only then moves
the cursor, in the transaction that holds the cursor row (``FOR UPDATE SKIP LOCKED``: several relays
share the tenants, one at a time each). A crash between confirm and cursor commit republishes: consumer
queues are at-least-once. The broker routes; the relay sends each event once, whatever the queue count.

A tenant with no queue costs no per-event work (N88): the page's transaction first moves its cursor to
the end of its log (``tenant_counters.last_seq``) when no queue of the tenant is visible, and reads no
page; the round remembers the tenant as idle, so later notifications of it cost nothing until a queue is
created (the creation notifies :data:`QUEUES_CHANGED`) or the listener says to look at everything.

This module is the relay's work; its process loop (listening for ingest's notification, reconnecting)
is the worker ``workers/consumer_relay.py``.
"""

from __future__ import annotations

import psycopg

from hub import tracing
from hub.config import get_settings
from hub.consumer.outlet import Outlet
from hub.consumer.projection import QUEUES_CHANGED, STORED_CHANNEL

TENANTS_SQL = "SELECT DISTINCT tenant_id FROM consumer_queues ORDER BY tenant_id"
# The cursor row is locked in the same statement that reads the page after it: one round trip, not two.
# A cursor another relay holds (SKIP LOCKED) reads as NULL, and ``seq > NULL`` selects nothing.
PAGE_SQL = """
SELECT seq, event_type, source, attributes, data, event_time, received_at FROM event_log
 WHERE tenant_id = %(tenant)s
   AND seq > (SELECT last_seq FROM consumer_relay_cursors WHERE tenant_id = %(tenant)s FOR UPDATE SKIP LOCKED)
   AND EXISTS (SELECT 1 FROM consumer_queues WHERE tenant_id = %(tenant)s)
 ORDER BY seq LIMIT %(limit)s
"""
# Moving a cursor to the end of the log loses nothing when, in the statement's snapshot, the tenant has no
# queue: a queue committed later only gets events committed after it, whose seqs are above the counter read
# here (ingest moves the counter in the transaction that stores the events). An UPDATE locks only rows its
# WHERE keeps, so a tenant with queues never waits here on a cursor another relay holds.
FORWARD_SQL = """
UPDATE consumer_relay_cursors AS c SET last_seq = t.last_seq FROM tenant_counters AS t
 WHERE c.tenant_id = %(tenant)s AND t.tenant_id = c.tenant_id AND c.last_seq < t.last_seq
   AND NOT EXISTS (SELECT 1 FROM consumer_queues AS q WHERE q.tenant_id = %(tenant)s AND q.queue_id <> %(queue)s)
"""
# The relay's form: no queue is left out (a queue id is never empty), and it says whether the tenant has any.
SKIP_SQL = f"""
WITH forward AS ({FORWARD_SQL.strip()})
SELECT EXISTS (SELECT 1 FROM consumer_queues WHERE tenant_id = %(tenant)s)
"""
ADVANCE_SQL = "UPDATE consumer_relay_cursors SET last_seq = %s WHERE tenant_id = %s"
# The cursor's COMMIT does not wait for the WAL flush (N87). A crash that loses the last advances only
# republishes their events, the window a crash between confirm and commit already had: consumer queues
# are at-least-once. Each flush was a wait of the relay's round, and every event notified meanwhile
# waited behind it.
LAZY_COMMIT_SQL = "SET LOCAL synchronous_commit = off"
START_CURSOR_SQL = """
INSERT INTO consumer_relay_cursors (tenant_id, last_seq)
SELECT CAST(%(tenant)s AS varchar), COALESCE((SELECT last_seq FROM tenant_counters WHERE tenant_id = CAST(%(tenant)s AS varchar)), 0)
ON CONFLICT (tenant_id) DO NOTHING
"""


def start_cursor(connection, tenant_id: str, queue_id: str) -> None:
    """Give the tenant's new queue QUEUE_ID what is stored after it: a cursor at the end of the log for the
    first queue, and one moved there when no other queue is left (an idle relay leaves it behind). Wakes
    the relays at COMMIT. CONNECTION is a SQLAlchemy connection (the service's session's)."""
    params = {"tenant": tenant_id, "queue": queue_id}
    connection.exec_driver_sql(START_CURSOR_SQL, params)
    connection.exec_driver_sql(FORWARD_SQL, params)
    connection.exec_driver_sql("SELECT pg_notify(%(channel)s, %(payload)s)",
                               {"channel": STORED_CHANNEL, "payload": QUEUES_CHANGED})


async def relay_tenant(conn: psycopg.AsyncConnection, outlet: Outlet, tenant_id: str, page: int) -> int | None:
    """Publish the tenant's next page of at most PAGE events; how many (0: nothing new, or another relay
    has it), or None when the tenant has no queue (its cursor is now at the end of its log)."""
    # Pipelined: BEGIN, the skip and the read go together, and the cursor's UPDATE with the COMMIT. Each
    # round trip to PostgreSQL is a wait on a busy machine, and a notified event waits for the whole round.
    async with conn.pipeline(), conn.transaction():
        await conn.execute(LAZY_COMMIT_SQL)
        live = await conn.execute(SKIP_SQL, {"tenant": tenant_id, "queue": ""})
        rows = await (await conn.execute(PAGE_SQL, {"tenant": tenant_id, "limit": page})).fetchall()
        if not rows:
            return 0 if (await live.fetchone())[0] else None
        with tracing.linked_span("consumer relay page", lambda: _producer_contexts(rows)):
            await outlet.publish(tenant_id, rows)
        await conn.execute(ADVANCE_SQL, (rows[-1][0], tenant_id))
    return len(rows)


async def relay_round(conn: psycopg.AsyncConnection, outlet: Outlet, tenants: set[str] | None = None,
                      idle: set[str] | None = None) -> int:
    """Drain TENANTS page by page (None: every tenant with queues); events published. IDLE holds the
    tenants found without queues: they are passed over, and the tenants found so are added."""
    if tenants is None:
        tenants = {row[0] for row in await (await conn.execute(TENANTS_SQL)).fetchall()}
        await conn.commit()
    idle = set() if idle is None else idle
    page, total = get_settings().consumer_relay_batch, 0
    for tenant_id in sorted(tenants - idle):
        while True:
            published = await relay_tenant(conn, outlet, tenant_id, page)
            if published is None:
                idle.add(tenant_id)
                break
            total += published
            # A short page was all that was committed when it was read; what commits after it is notified
            # (ingest notifies at COMMIT), so reading again now would only find nothing, a round later.
            if published < page:
                break
    return total


def _producer_contexts(rows: list[tuple]) -> list[str]:
    """The ``traceparent`` extensions of a page's events (the attributes are each row's fourth column)."""
    return [traceparent for row in rows if (traceparent := (row[3] or {}).get("traceparent"))]

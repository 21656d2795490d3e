"""The relay's round against the test database, with an outlet that only records: every stored event leaves
in order and the cursor follows, a short page ends the tenant's round without reading the log again (what
commits after it is notified), full pages are read until a short one, and a cursor another relay holds is
left alone; the cursor's COMMIT does not wait for the WAL flush (N87)."""

from __future__ import annotations

import asyncio
import uuid
from collections.abc import Callable
from typing import Any

import psycopg

from hub.consumer.relay import relay_round
from hub.db import libpq_url

INSERT_SQL = """
INSERT INTO event_log (tenant_id, seq, source, ce_id, event_type, schema_version, schema_major, partition_key,
                       event_time, received_at, attributes, data, kafka_topic, kafka_partition, kafka_offset)
SELECT CAST(%(tenant)s AS varchar), g, 'event-publisher-service', CAST(%(tenant)s AS varchar) || '-' || g, 'relay.tested', '1.0.0', 1, 'k',
       now(), now(), '{}'::jsonb, json_build_object('n', g), 'relay-test', 0, g
  FROM generate_series(1, %(count)s) g
"""


class RecordingOutlet:
    """Takes every page as confirmed and keeps the seqs it was given."""

    def __init__(self) -> None:
        self.pages: list[list[int]] = []

    async def publish(self, tenant_id: str, rows: list[tuple]) -> None:
        self.pages.append([row[0] for row in rows])


QUEUE_SQL = """
INSERT INTO consumer_queues (queue_id, tenant_id, durable, filter_groups, created_at, last_attached_at)
VALUES (%s, %s, true, '[]'::jsonb, now(), now())
"""


def seeded(count: int, queues: int = 1) -> str:
    """A tenant with COUNT stored events (and its counter), QUEUES queue rows and a relay cursor at 0."""
    tenant = f"relay-{uuid.uuid4().hex[:8]}"
    with psycopg.connect(libpq_url(), autocommit=True) as conn:
        conn.execute(INSERT_SQL, {"tenant": tenant, "count": count})
        conn.execute("INSERT INTO tenant_counters (tenant_id, last_seq) VALUES (%s, %s)", (tenant, count))
        conn.execute("INSERT INTO consumer_relay_cursors (tenant_id, last_seq) VALUES (%s, 0)", (tenant,))
        for n in range(queues):
            conn.execute(QUEUE_SQL, (f"{tenant}-q{n}", tenant))
    return tenant


def cursor_of(tenant: str) -> int:
    with psycopg.connect(libpq_url(), autocommit=True) as conn:
        return conn.execute("SELECT last_seq FROM consumer_relay_cursors WHERE tenant_id = %s", (tenant,)).fetchone()[0]


async def relayed(tenant: str, before: Callable[[], Any] | None = None,
                  idle: set[str] | None = None) -> tuple[RecordingOutlet, int]:
    """One round for TENANT (IDLE: the relay's tenants without queues): the outlet, and how many statements
    read the event log."""
    outlet, reads = RecordingOutlet(), [0]
    async with await psycopg.AsyncConnection.connect(libpq_url()) as conn:
        execute = conn.execute

        async def counted(query: Any, *args: Any, **kwargs: Any) -> Any:
            reads[0] += "FROM event_log" in str(query)
            return await execute(query, *args, **kwargs)

        conn.execute = counted  # type: ignore[method-assign]
        if before is not None:
            before()
        await relay_round(conn, outlet, {tenant}, idle)
    return outlet, reads[0]


def test_a_short_page_is_the_whole_round() -> None:
    tenant = seeded(3)
    outlet, reads = asyncio.run(relayed(tenant))
    assert outlet.pages == [[1, 2, 3]]
    assert cursor_of(tenant) == 3
    assert reads == 1, "a short page held all that was committed: no second read of the log"


def test_full_pages_are_read_until_a_short_one(override_settings) -> None:  # noqa: ANN001
    override_settings(consumer_relay_batch=2)
    tenant = seeded(5)
    outlet, reads = asyncio.run(relayed(tenant))
    assert outlet.pages == [[1, 2], [3, 4], [5]]
    assert cursor_of(tenant) == 5
    assert reads == 3


def test_a_cursor_another_relay_holds_is_skipped() -> None:
    tenant = seeded(2)
    holder = psycopg.connect(libpq_url())
    try:
        holder.execute("SELECT 1 FROM consumer_relay_cursors WHERE tenant_id = %s FOR UPDATE", (tenant,))
        outlet, _ = asyncio.run(relayed(tenant))
        assert outlet.pages == []
    finally:
        holder.rollback()
        holder.close()
    outlet, _ = asyncio.run(relayed(tenant))
    assert outlet.pages == [[1, 2]]


async def commit_settings(tenant: str) -> tuple[list[str], str]:
    """``synchronous_commit`` while a page of TENANT is published (inside the cursor's transaction), and on
    the same connection after the round."""
    query = "SELECT current_setting('synchronous_commit')"
    async with await psycopg.AsyncConnection.connect(libpq_url()) as conn:
        during: list[str] = []

        class Probe:
            async def publish(self, tenant_id: str, rows: list[tuple]) -> None:
                during.append((await (await conn.execute(query)).fetchone())[0])

        await relay_round(conn, Probe(), {tenant})
        after = (await (await conn.execute(query)).fetchone())[0]
    return during, after


def test_the_cursor_commit_does_not_wait_for_the_wal_flush() -> None:
    tenant = seeded(2)
    during, after = asyncio.run(commit_settings(tenant))
    assert during == ["off"], "the advance is republished after a crash that loses it: at-least-once (N87)"
    assert after == "on", "only the relay's transaction: the connection keeps the server's default"
    assert cursor_of(tenant) == 2

"""The history projection's rows follow the event log without a foreign key (migration 0023, issue 39)."""

from __future__ import annotations

import psycopg
import pytest

from hub.db import libpq_url

EVENT_SQL = """
INSERT INTO event_log (tenant_id, seq, source, ce_id, event_type, schema_version, schema_major, received_at,
                       kafka_topic, kafka_partition, kafka_offset)
SELECT %s, n, 'event-broker', %s || n, 'order.shipped', '1', 1, now(), 't', 0, n FROM unnest(%s::bigint[]) AS n
"""
HISTORY_SQL = """
INSERT INTO broker_events (tenant_id, seq, main_topic, topic, event_type, ts)
VALUES (%s, %s, 'orders', 'orders', 'order.shipped', %s)
"""


def _history(connection: psycopg.Connection, tenant: str) -> list[int]:
    rows = connection.execute("SELECT seq FROM broker_events WHERE tenant_id = %s ORDER BY seq", (tenant,))
    return [row[0] for row in rows.fetchall()]


def test_a_history_row_locks_no_event_and_goes_with_its_event(tenant):
    """Writing a history row takes no lock on its event's row (the foreign key's check did, and cost a
    query per row); every statement deleting events deletes their history rows too, as the key's
    cascade did."""
    with psycopg.connect(libpq_url(), autocommit=True) as writer, \
            psycopg.connect(libpq_url(), autocommit=True) as other:
        writer.execute(EVENT_SQL, (tenant, tenant, [1, 2, 3]))
        with writer.transaction():
            for seq in (1, 2, 3):
                writer.execute(HISTORY_SQL, (tenant, seq, seq))
            try:  # NOWAIT: a FOR KEY SHARE lock held by the writer would refuse at once
                other.execute("SELECT 1 FROM event_log WHERE tenant_id = %s AND seq = 1 FOR UPDATE NOWAIT",
                              (tenant,)).fetchall()
            except psycopg.errors.LockNotAvailable:
                pytest.fail("writing a history row locked its event's row")
        assert _history(other, tenant) == [1, 2, 3]
        other.execute("DELETE FROM event_log WHERE tenant_id = %s AND seq IN (1, 2)", (tenant,))
        assert _history(other, tenant) == [3]
        other.execute("DELETE FROM event_log WHERE tenant_id = %s", (tenant,))
        assert _history(other, tenant) == []

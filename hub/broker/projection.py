"""The history projection, written by ingest: one ``broker_events`` row per stored broker event.

Ingest calls :func:`write_projection` in the transaction that stores a batch, with the events it
inserted; only events of source ``event-broker`` whose subject is a valid topic get a row, so the
cost for every other event is one string comparison. Each tenant with broker events in the batch
is notified on :data:`STORED_CHANNEL` (delivered at COMMIT): publishers waiting for their event
(read-your-writes) and live subscribers of that tenant look at once.
"""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from typing import Any

import orjson

from hub.broker.grammar import parse_topic
from hub.broker.models import BrokerEvent
from hub.tableshape import column_list, copy_types

BROKER_SOURCE = "event-broker"
STORED_CHANNEL = "hub_broker_stored"
EPOCH = datetime(1970, 1, 1, tzinfo=UTC)
MILLISECOND = timedelta(milliseconds=1)
PROJECTION_COLUMNS = column_list(BrokerEvent)
PROJECTION_TYPES = copy_types(BrokerEvent)


def to_millis(moment: datetime) -> int:
    """MOMENT as whole milliseconds since the epoch (exact: no float on the way)."""
    return (moment - EPOCH) // MILLISECOND


def from_millis(millis: int) -> datetime:
    return EPOCH + timedelta(milliseconds=millis)


def projection_rows(events: list[Any]) -> list[tuple]:
    """The ``broker_events`` rows of the broker events among EVENTS (decoded, stored, seq set)."""
    rows: list[tuple] = []
    for event in events:
        if event.source != BROKER_SOURCE or event.time is None:
            continue
        subject = orjson.loads(event.attributes_json).get("subject")
        topic = parse_topic(subject) if isinstance(subject, str) else None
        if topic is None:
            continue  # not a broker topic: the event is in the log, but in no broker history
        rows.append((event.tenant_id, event.seq, topic.main, topic.text, event.event_type, to_millis(event.time)))
    return rows


def write_projection(cursor: Any, events: list[Any]) -> int:
    """COPY the projection rows of EVENTS through a psycopg CURSOR and notify their tenants."""
    rows = projection_rows(events)
    if not rows:
        return 0
    with cursor.copy(f"COPY broker_events ({PROJECTION_COLUMNS}) FROM STDIN (FORMAT BINARY)") as copy:
        copy.set_types(PROJECTION_TYPES)
        for row in rows:
            copy.write_row(row)
    for tenant in sorted({row[0] for row in rows}):
        cursor.execute("SELECT pg_notify(%s, %s)", (STORED_CHANNEL, tenant))
    return len(rows)

"""An event PostgreSQL refuses (a constraint, a value) becomes poison; the rest of its batch is stored."""

from __future__ import annotations

import uuid

import psycopg

from hub.db import libpq_url
from tests.ingest.conftest import binary, cloud_event, ingest_worker, rows, stored, wait_until


def test_a_constraint_violation_quarantines_only_that_event(lane, tenant):
    """A refused row must neither stall the partition (crash loop) nor take its batch down with it."""
    refused_id = f"refuse-{uuid.uuid4().hex[:8]}"
    constraint = f"ck_test_{uuid.uuid4().hex[:8]}"
    # NOT VALID: the check applies to new rows only, and the shared table's rows are left alone.
    with psycopg.connect(libpq_url(), autocommit=True) as conn:
        conn.execute(f"ALTER TABLE event_log ADD CONSTRAINT {constraint} CHECK (ce_id <> '{refused_id}') NOT VALID")
    try:
        events = [cloud_event(tenant), cloud_event(tenant, ce_id=refused_id), cloud_event(tenant)]
        lane.send(*(binary(event) for event in events))
        with ingest_worker():
            wait_until(lambda: stored(tenant) == 2)
            dead = lane.dlq_records(1)
    finally:
        with psycopg.connect(libpq_url(), autocommit=True) as conn:
            conn.execute(f"ALTER TABLE event_log DROP CONSTRAINT {constraint}")
    kept = [row[0] for row in rows("SELECT ce_id FROM event_log WHERE tenant_id = %s ORDER BY seq", (tenant,))]
    assert kept == [events[0].get_attributes()["id"], events[2].get_attributes()["id"]]
    assert len(dead) == 1
    headers = {name: value.decode() for name, value in dead[0].headers()}
    assert headers["dlq-error-class"] == "validation"
    assert "refused" in headers["dlq-error-message"] and headers["dlq-source-offset"] == "1"

"""The hand-encoded job rows (workers.ingest.job_rows) read back from PostgreSQL as written."""

from __future__ import annotations

import uuid
from datetime import UTC, datetime

import psycopg
import uuid_utils

from hub.db import libpq_url
from hub.dataplane.models import JobPriority, JobState
from workers.ingest.job_rows import COPY_COLUMNS, JobRows

READ = """SELECT id, tenant_id, subscription_id, event_seq, state, attempts, next_attempt_at, lease_until,
                 last_error_class, created_at, updated_at, priority FROM {table} ORDER BY event_seq, subscription_id"""


def test_job_rows_copy_into_delivery_jobs_shape_and_read_back():
    now = datetime(2026, 12, 5, 23, 59, 58, 123456, tzinfo=UTC)
    subscriptions = sorted(str(uuid.uuid4()) for _ in range(3))
    fields: dict[str, bytes] = {}
    rows = JobRows(now=now, state=JobState.pending.value, priority=JobPriority.bulk.value, subscription_fields=fields)
    rows.add("tenant-ä", 1, tuple(subscriptions))
    rows.add("t2", 2**40, (subscriptions[1],))
    rows.add("t3", 3, ())
    assert rows.count == 4 and set(fields) == set(subscriptions)  # each id encoded once, kept for the next batch
    table = f"job_rows_{uuid.uuid4().hex[:8]}"
    with psycopg.connect(libpq_url()) as conn:
        conn.execute(f"CREATE TEMP TABLE {table} (LIKE delivery_jobs INCLUDING ALL)")
        with conn.cursor().copy(f"COPY {table} ({COPY_COLUMNS}) FROM STDIN (FORMAT BINARY)") as copy:
            copy.write(rows.data())
        stored = conn.execute(READ.format(table=table)).fetchall()
    expected = [("tenant-ä", 1, subscription) for subscription in subscriptions] + [("t2", 2**40, subscriptions[1])]
    assert [(row[1], row[3], str(row[2])) for row in stored] == expected
    for row in stored:
        assert uuid_utils.UUID(str(row[0])).version == 7
        assert row[4:] == (JobState.pending.value, 0, now, None, "", now, now, JobPriority.bulk.value)
    assert len({row[0] for row in stored}) == 4

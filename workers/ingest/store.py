"""One ingest batch, one PostgreSQL transaction: sequence numbers, the event log, jobs, counts.

Per batch: the subscription cache checks its version (one query); each tenant's counter is
advanced once by the number of its events, tenants locked in sorted order (no deadlocks; the row
lock also makes commit order equal seq order per tenant); the events are COPYed into
``event_log`` (broker events also into their history projection, hub.broker.projection); a
delivery job is COPYed for every matching push subscription (rows encoded by workers.ingest.job_rows), and an ``available`` attempt (N23:
the event was stored for a pull subscription) for every matching pull subscription; pull
eligibility and poison attempts are counted; an ordered subscription's job for an event that carries its
key goes through hub.dataplane.ordering's enqueue instead (one statement for the batch's ordered jobs, after
the COPY; N78); a batch that wrote jobs notifies the delivery workers (delivered
at COMMIT). A duplicate (tenant, source, id) (N19) makes the fast COPY fail,
and the batch then goes through a staging table with ``ON CONFLICT DO NOTHING`` (the duplicate's
seq becomes a gap). The caller's ``before_commit`` runs last, inside the transaction.
"""

from __future__ import annotations

import logging
import uuid
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import UTC, datetime

import psycopg
import uuid_utils
from psycopg import errors as pg_errors

from hub.broker.projection import write_projection
from hub.consumer.projection import notify_relay
from hub.cloudevent.decode import VALIDATION, Event, Poison
from hub.dataplane import ordering
from hub.dataplane.due_channel import notify_due
from hub.dataplane.models import DeliveryAttempt, JobPriority, JobState, LoggedEvent
from hub.ids import new_id, record_uuid
from hub.sinks.vocabulary import Outcome, SinkKind
from hub.tableshape import column_list, copy_types
from workers.ingest.job_rows import COPY_SQL as JOBS_COPY_SQL
from workers.ingest.job_rows import JobRows
from workers.ingest.matching import CachedSubscription, SubscriptionCache
from workers.runtime import ReconnectingConnection

log = logging.getLogger("hub.ingest.store")

EVENT_COLUMNS = column_list(LoggedEvent)
# Binary COPY: PostgreSQL parses no timestamp, uuid or integer text. The json columns travel as
# text, which is json's binary wire form; PostgreSQL still validates them.
EVENT_TYPES = copy_types(LoggedEvent)
PENDING = JobState.pending.value  # a plain str for the COPY rows
LIVE = JobPriority.live.value  # a plain int for the COPY rows (N58)
AVAILABLE_FIELDS = ("id", "job_id", "tenant_id", "subscription_id", "sink_kind", "event_seq", "attempt_no", "outcome",
                    "status_code", "error_class", "detail", "latency_ms", "attempted_at")
AVAILABLE_COLUMNS = column_list(DeliveryAttempt, *AVAILABLE_FIELDS)
AVAILABLE_TYPES = copy_types(DeliveryAttempt, *AVAILABLE_FIELDS)
PULL, AVAILABLE = SinkKind.pull.value, Outcome.available.value
ALLOCATE_SQL = """
INSERT INTO tenant_counters (tenant_id, last_seq)
SELECT tenant, n FROM unnest(%s::text[], %s::bigint[]) AS batch(tenant, n) ORDER BY tenant
ON CONFLICT (tenant_id) DO UPDATE SET last_seq = tenant_counters.last_seq + EXCLUDED.last_seq
RETURNING tenant_id, last_seq
"""
STAGE_SQL = "CREATE TEMP TABLE IF NOT EXISTS ingest_stage (LIKE event_log) ON COMMIT DELETE ROWS"
MERGE_SQL = f"""
INSERT INTO event_log ({EVENT_COLUMNS}) SELECT {EVENT_COLUMNS} FROM ingest_stage
ON CONFLICT DO NOTHING RETURNING tenant_id, seq
"""
ELIGIBILITY_SQL = """
INSERT INTO pull_eligibility_hourly (tenant_id, bucket_start, subscription_ids, events)
SELECT tenant, bucket, ids::uuid[], n
  FROM unnest(%s::text[], %s::timestamptz[], %s::text[], %s::bigint[]) AS batch(tenant, bucket, ids, n)
 ORDER BY tenant, bucket, ids
ON CONFLICT (tenant_id, bucket_start, subscription_ids)
DO UPDATE SET events = pull_eligibility_hourly.events + EXCLUDED.events
"""
# No conflict target: the table's one unique key is (id) on PostgreSQL, (tenant_id, id) on Citus (N107).
POISON_ATTEMPT_SQL = f"""
INSERT INTO delivery_attempts ({column_list(DeliveryAttempt, "id", "job_id", "tenant_id", "subscription_id",
                                            "sink_kind", "outcome", "status_code", "error_class",
                                            "latency_ms", "attempted_at")})
VALUES (%s, NULL, %s, NULL, '', 'poison', 0, %s, 0, %s)
ON CONFLICT DO NOTHING
"""
# What a stored batch feeds, in its own transaction: broker history (seed 003, a row per broker event
# only) and the consumer relay's wake-up (seed 000). Each takes the cursor and the inserted events.
PROJECTIONS = (write_projection, notify_relay)
MAX_TENANT_RAW = 256
# A value or constraint PostgreSQL refuses: that event becomes poison, the rest of the batch goes on.
# (A duplicate is a UniqueViolation, handled before these by the staging merge.)
ROW_REFUSED = (psycopg.DataError, psycopg.IntegrityError)


@dataclass
class BatchOutcome:
    inserted: int = 0
    duplicates: int = 0
    jobs: int = 0
    rejected: list[Poison] = field(default_factory=list)


def _hour(moment: datetime) -> datetime:
    return moment.replace(minute=0, second=0, microsecond=0)


def _unique_in_batch(events: list[Event]) -> tuple[list[Event], int]:
    """Drop repeats of one (tenant, source, id) inside the batch; the first occurrence wins."""
    seen: set[tuple[str, str, str]] = set()
    kept: list[Event] = []
    for event in events:
        key = (event.tenant_id, event.source, event.ce_id)
        if key not in seen:
            seen.add(key)
            kept.append(event)
    return kept, len(events) - len(kept)


class EventStore:
    """Writes ingest batches through one psycopg connection, reconnecting after a fault."""

    def __init__(self, url: str, cache: SubscriptionCache) -> None:
        self.cache = cache
        self.db = ReconnectingConnection(url, application_name="hub-ingest",
                                         on_connect=lambda conn: conn.execute(STAGE_SQL))
        self._uuids: dict[str, uuid.UUID] = {}  # subscription ids, parsed once for binary COPY
        self._job_fields: dict[str, bytes] = {}  # and encoded once for the job rows (JobRows)

    def _subscription_uuid(self, subscription_id: str) -> uuid.UUID:
        found = self._uuids.get(subscription_id)
        if found is None:
            found = self._uuids[subscription_id] = uuid.UUID(subscription_id)
        return found

    def close(self) -> None:
        self.db.close()

    def write(
        self, events: list[Event], poisons: list[Poison], before_commit: Callable[[list[Poison]], None]
    ) -> BatchOutcome:
        """Store one batch in one transaction; ``before_commit(rejected)`` runs just before COMMIT."""
        return self.db.run(lambda conn: self._write(conn, events, poisons, before_commit))

    def _write(
        self, conn: psycopg.Connection, events: list[Event], poisons: list[Poison],
        before_commit: Callable[[list[Poison]], None],
    ) -> BatchOutcome:
        outcome = BatchOutcome()
        cursor = conn.cursor()
        if self.cache.refresh(cursor):
            self._uuids.clear()  # bounded by the live subscriptions, not by every one ever seen
            self._job_fields.clear()
        events, outcome.duplicates = _unique_in_batch(events)
        now = datetime.now(UTC)
        if events:
            _allocate(cursor, events)
            inserted, outcome.rejected = self._insert_events(conn, cursor, events, now)
            outcome.duplicates += len(events) - len(inserted) - len(outcome.rejected)
            outcome.inserted = len(inserted)
            outcome.jobs = self._fan_out(cursor, inserted, now)
            for project in PROJECTIONS:
                project(cursor, inserted)
            if outcome.jobs:
                notify_due(cursor)  # sent by PostgreSQL at COMMIT: idle delivery workers claim at once
        _record_poison(cursor, poisons + outcome.rejected, now)
        before_commit(outcome.rejected)
        return outcome

    def _insert_events(
        self, conn: psycopg.Connection, cursor: psycopg.Cursor, events: list[Event], received: datetime
    ) -> tuple[list[Event], list[Poison]]:
        try:
            with conn.transaction():
                _copy_events(cursor, "event_log", events, received)
            return events, []
        except pg_errors.UniqueViolation:
            pass  # a redelivered record: merge through the staging table below
        except ROW_REFUSED:
            return self._insert_isolated(conn, cursor, events, received)
        try:
            with conn.transaction():
                _copy_events(cursor, "ingest_stage", events, received)
                stored = set(cursor.execute(MERGE_SQL).fetchall())
                cursor.execute("DELETE FROM ingest_stage")
        except ROW_REFUSED:
            return self._insert_isolated(conn, cursor, events, received)
        return [event for event in events if (event.tenant_id, event.seq) in stored], []

    def _insert_isolated(
        self, conn: psycopg.Connection, cursor: psycopg.Cursor, events: list[Event], received: datetime
    ) -> tuple[list[Event], list[Poison]]:
        """Row by row, so an event PostgreSQL refuses becomes poison instead of blocking the batch."""
        inserted: list[Event] = []
        rejected: list[Poison] = []
        sql = f"INSERT INTO event_log ({EVENT_COLUMNS}) VALUES ({', '.join(['%s'] * len(EVENT_TYPES))}) ON CONFLICT DO NOTHING"
        for event in events:
            try:
                with conn.transaction():
                    cursor.execute(sql, _event_row(event, received))
                    if cursor.rowcount == 1:
                        inserted.append(event)
            except ROW_REFUSED as exc:
                log.warning("event store refused a record", extra={"fields": {
                    "topic": event.topic, "partition": event.partition, "offset": event.offset,
                    "sqlstate": exc.sqlstate or ""}})
                rejected.append(Poison(VALIDATION, f"the event store refused the event ({exc.sqlstate})",
                                       event.tenant_id, event.source, event.topic, event.partition,
                                       event.offset, _timestamp_ms(event), event.record))
        return inserted, rejected

    def _fan_out(self, cursor: psycopg.Cursor, inserted: list[Event], now: datetime) -> int:
        """COPY one job per matching push subscription and one ``available`` attempt per matching
        pull subscription; add up pull eligibility per hour."""
        bucket = _hour(now)
        eligible: Counter[tuple[str, tuple[str, ...]]] = Counter()
        available: list[tuple] = []
        select = self.cache.select
        as_uuid = self._subscription_uuid
        jobs = JobRows(now=now, state=PENDING, priority=LIVE, subscription_fields=self._job_fields)
        ordered: list[ordering.OrderedJob] = []
        for event in inserted:
            found = select(event)
            if found.push:
                jobs.add(event.tenant_id, event.seq, found.push)
            if found.ordered:
                _add_ordered(event, found.ordered, jobs, ordered, as_uuid)
            if found.pull:
                eligible[(event.tenant_id, found.pull)] += 1
                available.extend((uuid_utils.uuid7(), None, event.tenant_id, as_uuid(subscription_id), PULL,
                                  event.seq, 0, AVAILABLE, 0, "", "", 0, now) for subscription_id in found.pull)
        if jobs.count:
            with cursor.copy(JOBS_COPY_SQL) as copy:
                copy.write(jobs.data())
        if ordered:
            ordering.run(cursor, ordering.enqueue(ordered, priority=LIVE))
        if available:
            _copy_available(cursor, available)
        if eligible:
            keys = sorted(eligible)
            cursor.execute(ELIGIBILITY_SQL, (
                [tenant for tenant, _ in keys], [bucket] * len(keys),
                ["{" + ",".join(ids) + "}" for _, ids in keys], [eligible[key] for key in keys]))
        return jobs.count + len(ordered)


def _add_ordered(event: Event, subscriptions: tuple[CachedSubscription, ...], jobs: JobRows,
                 ordered: list[ordering.OrderedJob], as_uuid: Callable[[str], uuid.UUID]) -> None:
    """The event's jobs for ordered subscriptions: an ordered job when the event carries the subscription's
    key, an ordinary job in the COPY when it carries none (no order relative to other events)."""
    keyless: list[str] = []
    for subscription in subscriptions:
        assert subscription.ordering is not None
        key = subscription.ordering.key_of(event.partition_key, event.attributes_json)
        if key is None:
            keyless.append(subscription.id)
        else:
            ordered.append(ordering.OrderedJob(as_uuid(subscription.id), key, event.seq, event.tenant_id, new_id()))
    if keyless:
        jobs.add(event.tenant_id, event.seq, tuple(keyless))


def _event_row(event: Event, received: datetime) -> tuple:
    return (event.tenant_id, event.seq, event.source, event.ce_id, event.event_type, event.schema_version,
            event.schema_major, event.delegated_scope, event.partition_key, event.time, received,
            event.attributes_json, event.data_json, event.topic, event.partition, event.offset)


def _copy_events(cursor: psycopg.Cursor, table: str, events: list[Event], received: datetime) -> None:
    with cursor.copy(f"COPY {table} ({EVENT_COLUMNS}) FROM STDIN (FORMAT BINARY)") as copy:
        copy.set_types(EVENT_TYPES)
        for event in events:
            copy.write_row(_event_row(event, received))


def _copy_available(cursor: psycopg.Cursor, rows: list[tuple]) -> None:
    """The ``available`` attempts (N23): a pull subscription's event is stored, ready to be read."""
    with cursor.copy(f"COPY delivery_attempts ({AVAILABLE_COLUMNS}) FROM STDIN (FORMAT BINARY)") as copy:
        copy.set_types(AVAILABLE_TYPES)
        for row in rows:
            copy.write_row(row)


def _allocate(cursor: psycopg.Cursor, events: list[Event]) -> None:
    """Take each tenant's seqs in one statement and number the batch's events in order."""
    counts = Counter(event.tenant_id for event in events)
    tenants = sorted(counts)
    rows = cursor.execute(ALLOCATE_SQL, (tenants, [counts[tenant] for tenant in tenants])).fetchall()
    next_seq = {tenant: last_seq - counts[tenant] + 1 for tenant, last_seq in rows}
    for event in events:
        event.seq = next_seq[event.tenant_id]
        next_seq[event.tenant_id] += 1


def _timestamp_ms(event: Event) -> int:
    return event.record.timestamp()[1] if event.record is not None else 0


def _record_poison(cursor: psycopg.Cursor, poisons: list[Poison], now: datetime) -> None:
    """One ``poison`` attempt (N23) per quarantined record whose tenant could be read."""
    rows = sorted(
        (record_uuid(p.topic, p.partition, p.offset, p.timestamp_ms), p.tenant_raw[:MAX_TENANT_RAW],
         p.error_class, now)
        for p in poisons if p.tenant_raw
    )
    if rows:
        cursor.executemany(POISON_ATTEMPT_SQL, rows)

"""Writes what the delivery engine and ingest write, for the health and dashboard tests.

This is the one place tests create events, delivery jobs and delivery attempts. ``record_attempt``
writes exactly what one try of the delivery engine records: one ``delivery_attempts`` row (try
number, event, outcome, error class, sanitized detail), the ``subscription_health`` row's last
success/failure when a try was made, and the job's new state. The engine writes no health row for
a job that ends ``disabled`` without a try (and numbers that attempt with the tries made before it),
so neither does this helper. tests/dashboard/test_real_deliveries.py checks the same reads against
rows the real engine (``hub deliver``) wrote.
"""

from __future__ import annotations

import uuid
from datetime import UTC, datetime, timedelta

import psycopg
from sqlalchemy import text

from hub.db import get_engine, libpq_url
from hub.ids import new_id
from hub.sinks.vocabulary import ErrorClass, Outcome
from workers.ingest.matching import SubscriptionCache
from workers.ingest.store import ELIGIBILITY_SQL

JOB_STATE_AFTER = {
    Outcome.delivered: "delivered", Outcome.failed: "retrying", Outcome.dead_lettered: "dead_lettered",
    Outcome.disabled: "disabled",
}


def now() -> datetime:
    return datetime.now(UTC)


def uuid7_at(moment: datetime) -> uuid.UUID:
    """A UUIDv7 whose time part is ``moment`` (what an id minted then looks like)."""
    fresh = new_id().bytes
    millis = int(moment.timestamp() * 1000).to_bytes(6, "big")
    return uuid.UUID(bytes=millis + fresh[6:])


def add_event(tenant: str, *, received_at: datetime, event_type: str = "transaction.posted",
              source: str = "ledger", major: int = 1, delegated_scope: str | None = None) -> int:
    """One event-log row, numbered from the tenant's counter as ingest does, and its pull eligibility
    counted in ingest's hourly rollup by ingest's own matcher; returns its seq."""
    with get_engine().begin() as connection:
        seq = connection.execute(text(
            "INSERT INTO tenant_counters (tenant_id, last_seq) VALUES (:t, 1) ON CONFLICT (tenant_id)"
            " DO UPDATE SET last_seq = tenant_counters.last_seq + 1 RETURNING last_seq"), {"t": tenant}).scalar_one()
        connection.execute(text(
            "INSERT INTO event_log (tenant_id, seq, source, ce_id, event_type, schema_version, schema_major,"
            " delegated_scope, received_at, data, kafka_topic, kafka_partition, kafka_offset)"
            " VALUES (:t, :seq, :source, :ce, :type, :version, :major, :scope, :at, '{}', 'lerian.streaming.ledger',"
            " 0, :seq)"),
            {"t": tenant, "seq": seq, "source": source, "ce": str(uuid.uuid4()), "type": event_type,
             "version": f"{major}.0.0", "major": major, "scope": delegated_scope, "at": received_at})
    _count_pull_eligibility(tenant, event_type, source, major, delegated_scope, received_at)
    return seq


def _count_pull_eligibility(tenant: str, event_type: str, source: str, major: int, scope: str | None,
                            received_at: datetime) -> None:
    with psycopg.connect(libpq_url()) as connection:
        cursor = connection.cursor()
        cache = SubscriptionCache()
        cache.refresh(cursor)
        found = cache.match(tenant, event_type, source, major, scope)
        if found.pull:
            hour = received_at.astimezone(UTC).replace(minute=0, second=0, microsecond=0)
            cursor.execute(ELIGIBILITY_SQL, ([tenant], [hour], ["{" + ",".join(found.pull) + "}"], [1]))


def add_job(tenant: str, subscription_id: str, *, event_seq: int, created_at: datetime,
            state: str = "pending") -> uuid.UUID:
    """One delivery job as ingest creates it (fan-out to a push subscription)."""
    job_id = uuid7_at(created_at)
    with get_engine().begin() as connection:
        connection.execute(text(
            "INSERT INTO delivery_jobs (id, tenant_id, subscription_id, event_seq, state, attempts,"
            " next_attempt_at, last_error_class, created_at, updated_at)"
            " VALUES (:id, :t, :sub, :seq, :state, 0, :at, '', :at, :at)"),
            {"id": job_id, "t": tenant, "sub": subscription_id, "seq": event_seq, "state": state, "at": created_at})
    return job_id


def record_attempt(tenant: str, subscription_id: str, outcome: Outcome, *, at: datetime,
                   job_id: uuid.UUID | None = None, event_seq: int | None = None, attempt_no: int = 1,
                   sink_kind: str = "webhook", error_class: ErrorClass | str = "") -> None:
    """One try, as the delivery engine records it: the attempt row, the health row, the job's state.

    A ``disabled`` outcome is the engine ending a job without a try: status 0, no health row change.
    """
    failed = outcome in (Outcome.failed, Outcome.dead_lettered)
    tried = outcome is not Outcome.disabled
    error = (error_class or ErrorClass.http_5xx) if failed else ""
    with get_engine().begin() as connection:
        connection.execute(text(
            "INSERT INTO delivery_attempts (id, job_id, tenant_id, subscription_id, sink_kind, event_seq,"
            " attempt_no, outcome, status_code, error_class, detail, latency_ms, attempted_at)"
            " VALUES (:id, :job, :t, :sub, :kind, :seq, :no, :outcome, :status, :error, :detail, :latency, :at)"),
            {"id": uuid7_at(at), "job": job_id, "t": tenant, "sub": subscription_id, "kind": sink_kind,
             "seq": event_seq, "no": attempt_no, "outcome": outcome.value,
             "status": 200 if outcome is Outcome.delivered else (503 if failed else 0), "error": str(error),
             "detail": "HTTP 503" if failed else "", "latency": 12 if tried else 0, "at": at})
        if tried:
            _fold_health(connection, tenant, subscription_id, outcome, failed=failed, at=at)
        if job_id is not None and outcome in JOB_STATE_AFTER:
            connection.execute(text("UPDATE delivery_jobs SET state = :state, attempts = :no, updated_at = :at"
                                    " WHERE id = :id"),
                               {"state": JOB_STATE_AFTER[outcome], "no": attempt_no, "at": at, "id": job_id})


def _fold_health(connection, tenant: str, subscription_id: str, outcome: Outcome, *, failed: bool,  # noqa: ANN001
                 at: datetime) -> None:
    """The engine's health fold for one try: last success/failure, the failure streak."""
    connection.execute(text(
        "INSERT INTO subscription_health (subscription_id, tenant_id, last_success_at, last_failure_at,"
        " consecutive_failures, auto_disabled, disabled_reason, updated_at)"
        " VALUES (:sub, :t, :success, :failure, :streak, false, '', :at)"
        " ON CONFLICT (subscription_id) DO UPDATE SET"
        "  last_success_at = GREATEST(subscription_health.last_success_at, EXCLUDED.last_success_at),"
        "  last_failure_at = GREATEST(subscription_health.last_failure_at, EXCLUDED.last_failure_at),"
        "  consecutive_failures = CASE WHEN :failed THEN subscription_health.consecutive_failures + 1 ELSE 0 END,"
        "  updated_at = EXCLUDED.updated_at"),
        {"sub": subscription_id, "t": tenant, "success": at if outcome is Outcome.delivered else None,
         "failure": at if failed else None, "streak": 1 if failed else 0, "failed": failed, "at": at})


def record_poison(tenant_raw: str, *, at: datetime) -> None:
    """A quarantined record whose tenant ingest could read: a ``poison`` attempt (no subscription)."""
    with get_engine().begin() as connection:
        connection.execute(text(
            "INSERT INTO delivery_attempts (id, job_id, tenant_id, subscription_id, sink_kind, outcome,"
            " status_code, error_class, latency_ms, attempted_at)"
            " VALUES (:id, NULL, :t, NULL, '', 'poison', 0, 'validation', 0, :at)"),
            {"id": uuid7_at(at), "t": tenant_raw, "at": at})


def auto_disable(subscription_id: str, *, at: datetime, reason: str = "sustained_failure_5d12h") -> None:
    """What the engine does when auto-disable trips: the verdict on both rows, delivery disabled."""
    with get_engine().begin() as connection:
        connection.execute(text("UPDATE subscriptions SET enabled = false, auto_disabled = true,"
                                " disabled_reason = :reason, updated_at = :at WHERE id = :sub"),
                           {"reason": reason, "at": at, "sub": subscription_id})
        connection.execute(text("UPDATE subscription_health SET auto_disabled = true, disabled_reason = :reason,"
                                " updated_at = :at WHERE subscription_id = :sub"),
                           {"reason": reason, "at": at, "sub": subscription_id})


def hours_ago(hours: float) -> datetime:
    return now() - timedelta(hours=hours)

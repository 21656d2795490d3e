"""Reads of the delivery log: a subscription's jobs newest first, one job, their attempts.

Every read is scoped by the subscription the caller reached (``hub.subscription.service.get_subscription``
ran first: the uniform 404) and by its tenant. A page is one backward range of
``ix_delivery_jobs_subscription_id`` (subscription, id): ids are UUIDv7 minted at creation and never
change, so a page after a cursor is the same rows whatever was inserted since (N45).
"""

from __future__ import annotations

import uuid
from collections import defaultdict
from dataclasses import dataclass, field
from typing import Any

from sqlalchemy import bindparam, text
from sqlalchemy.dialects.postgresql import ARRAY, UUID
from sqlalchemy.types import String
from sqlmodel import Session

from hub.deliverylog.errors import JOB_NOT_FOUND
from hub.deliverylog.filters import LogFilters, encode_cursor, id_bound
from hub.errors import NotFound
from hub.ids import parse_uuid
from hub.subscription.models import Subscription

JOB_SELECT = """
SELECT j.id, j.state, j.attempts, j.next_attempt_at, j.created_at, j.updated_at, j.event_seq,
       e.ce_id, e.event_type, e.event_time, e.source, e.received_at
  FROM delivery_jobs AS j
  LEFT JOIN event_log AS e ON e.tenant_id = j.tenant_id AND e.seq = j.event_seq
 WHERE j.subscription_id = :sub AND j.tenant_id = :tenant
"""
ATTEMPTS_SQL = text("""
SELECT job_id, attempt_no, attempted_at, outcome, status_code, error_class, latency_ms, detail
  FROM delivery_attempts
 WHERE job_id = ANY(:ids) AND job_id IS NOT NULL AND tenant_id = :tenant
 ORDER BY attempted_at, attempt_no
""").bindparams(bindparam("ids", type_=ARRAY(UUID(as_uuid=True))))
# One condition per filter; the event's own filters read the event log by its key (tenant, seq).
CONDITIONS = {
    "after": "j.id < :after",
    "since": "j.id >= :since",
    "until": "j.id < :until",
    "states": "j.state = ANY(:states)",
    "event_type": "e.event_type = :event_type",
    "event_id": "j.event_seq = ANY(ARRAY(SELECT seq FROM event_log WHERE tenant_id = :tenant AND ce_id = :event_id))",
}


@dataclass
class JobRecord:
    """One delivery job, its event (None when retention removed it) and its attempts, oldest first."""

    row: Any
    attempts: list[Any] = field(default_factory=list)


@dataclass(frozen=True)
class LogPage:
    jobs: list[JobRecord]
    next_cursor: str


def _parameters(filters: LogFilters) -> dict[str, Any]:
    values: dict[str, Any] = {
        "after": filters.after, "states": list(filters.states) if filters.states is not None else None,
        "event_type": filters.event_type, "event_id": filters.event_id,
        "since": id_bound(filters.since) if filters.since else None,
        "until": id_bound(filters.until) if filters.until else None,
    }
    return {name: value for name, value in values.items() if value is not None}


def _page_statement(present: dict[str, Any]) -> Any:
    where = "".join(f"\n   AND {CONDITIONS[name]}" for name in present)
    statement = text(f"{JOB_SELECT}{where}\n ORDER BY j.id DESC LIMIT :limit")
    if "states" in present:
        statement = statement.bindparams(bindparam("states", type_=ARRAY(String())))
    return statement


def with_attempts(session: Session, tenant_id: str, rows: list[Any]) -> list[JobRecord]:
    """The rows as records carrying their attempts (one indexed read for the whole page)."""
    records = [JobRecord(row) for row in rows]
    if not rows:
        return records
    by_job: dict[uuid.UUID, list[Any]] = defaultdict(list)
    for attempt in session.execute(ATTEMPTS_SQL, {"ids": [row.id for row in rows], "tenant": tenant_id}):
        by_job[attempt.job_id].append(attempt)
    for record in records:
        record.attempts = by_job.get(record.row.id, [])
    return records


def list_jobs(*, session: Session, sub: Subscription, filters: LogFilters) -> LogPage:
    """A page newest first after the cursor, and the next cursor ("" at the end)."""
    present = _parameters(filters)
    params = {**present, "sub": sub.id, "tenant": sub.tenant_id, "limit": filters.limit + 1}
    rows = list(session.execute(_page_statement(present), params))
    page, more = rows[:filters.limit], len(rows) > filters.limit
    return LogPage(with_attempts(session, sub.tenant_id, page), encode_cursor(page[-1].id) if more else "")


def job_row(session: Session, sub: Subscription, job_id: str | uuid.UUID) -> Any:
    """One job of ``sub`` with its event, or the uniform 404."""
    parsed = job_id if isinstance(job_id, uuid.UUID) else parse_uuid(job_id)
    if parsed is None:
        raise NotFound(JOB_NOT_FOUND)
    row = session.execute(text(f"{JOB_SELECT}   AND j.id = :job"),
                          {"sub": sub.id, "tenant": sub.tenant_id, "job": parsed}).first()
    if row is None:
        raise NotFound(JOB_NOT_FOUND)
    return row


def get_job(*, session: Session, sub: Subscription, job_id: str | uuid.UUID) -> JobRecord:
    """One job of ``sub`` with all its attempts."""
    return with_attempts(session, sub.tenant_id, [job_row(session, sub, job_id)])[0]

"""Reading and purging broker history (E7, E8): the topic's subtree, newest first, in the window."""

from __future__ import annotations

import uuid
from dataclasses import dataclass
from typing import Any

import orjson
import uuid_utils
from sqlalchemy import text
from sqlmodel import Session

from hub.broker.grammar import SEPARATOR, Topic
from hub.broker.projection import BROKER_SOURCE
from hub.broker.window import NO_FLOOR, effective_window, window_floor
from hub.dataplane.models import DUE_JOB_STATES, JobState, state_in
from hub.sinks.vocabulary import Outcome

SUBTREE_END = chr(ord(SEPARATOR) + 1)  # ';': the first character after ':' in byte order
# An open job is one still due (a claimed job keeps its due state; its lease marks it taken).
OPEN_JOBS = state_in(DUE_JOB_STATES)
PURGED_STATE = JobState.disabled.value
PURGED_DETAIL = "the event was purged from the event broker's history"


@dataclass(frozen=True, slots=True)
class Filters:
    """The optional filters of a read or a purge (instants in ms: ``since`` inclusive, ``until`` exclusive)."""

    event_type: str | None = None
    since: int | None = None
    until: int | None = None


def _where(topic: Topic, filters: Filters) -> tuple[str, dict[str, Any]]:
    """The conditions on ``broker_events b`` selecting TOPIC's subtree and FILTERS, and their parameters."""
    clauses = ["b.tenant_id = :tenant"]
    params: dict[str, Any] = {}
    if topic.is_main:
        clauses.append("b.main_topic = :main")
        params["main"] = topic.main
    else:
        # The topic, and every topic in ['T:', 'T;'): exactly those that start with 'T:' in C order.
        # No main_topic condition: a sub-topic's subtree is read from the topic index, not by
        # filtering the whole Main Topic's history.
        clauses.append("(b.topic = :topic OR (b.topic >= :first AND b.topic < :after))")
        params.update(topic=topic.text, first=topic.text + SEPARATOR, after=topic.text + SUBTREE_END)
    if filters.event_type is not None:
        clauses.append("b.event_type = :event_type")
        params["event_type"] = filters.event_type
    if filters.since is not None:
        clauses.append("b.ts >= :since")
        params["since"] = filters.since
    if filters.until is not None:
        clauses.append("b.ts < :until")
        params["until"] = filters.until
    return " AND ".join(clauses), params


def history(session: Session, *, tenant_id: str, topic: Topic, filters: Filters, limit: int,
            now_ms: int) -> list[dict[str, Any]]:
    """The retained events of TOPIC and its sub-topics, newest first, as history items."""
    window = effective_window(session, tenant_id=tenant_id, main_topic=topic.main)
    floor_ts, floor_seq = window_floor(session, tenant_id=tenant_id, window=window, now_ms=now_ms)
    where, params = _where(topic, filters)
    rows = session.execute(text(f"""
        SELECT e.ce_id, b.topic, b.event_type, e.data::text, b.ts
          FROM broker_events b JOIN event_log e ON e.tenant_id = b.tenant_id AND e.seq = b.seq
         WHERE {where} AND (b.ts, b.seq) >= (:floor_ts, :floor_seq)
         ORDER BY b.ts DESC, b.seq DESC LIMIT :limit"""),
        {**params, "tenant": tenant_id, "floor_ts": floor_ts, "floor_seq": floor_seq, "limit": limit}).all()
    return [history_item(*row) for row in rows]


def replay_page(session: Session, *, tenant_id: str, topic: Topic, since: int, after: tuple[int, int] | None,
                now_ms: int, limit: int = 1000) -> list[tuple[int, int, dict[str, Any]]]:
    """Retained events of TOPIC's subtree from SINCE on, oldest first, after the (ts, seq) AFTER: (ts, seq, item)."""
    window = effective_window(session, tenant_id=tenant_id, main_topic=topic.main)
    floor = window_floor(session, tenant_id=tenant_id, window=window, now_ms=now_ms)
    after_ts, after_seq = after or NO_FLOOR
    where, params = _where(topic, Filters(since=since))
    rows = session.execute(text(f"""
        SELECT e.ce_id, b.topic, b.event_type, e.data::text, b.ts, b.seq
          FROM broker_events b JOIN event_log e ON e.tenant_id = b.tenant_id AND e.seq = b.seq
         WHERE {where} AND (b.ts, b.seq) >= (:floor_ts, :floor_seq) AND (b.ts, b.seq) > (:after_ts, :after_seq)
         ORDER BY b.ts, b.seq LIMIT :limit"""),
        {**params, "tenant": tenant_id, "floor_ts": floor[0], "floor_seq": floor[1], "after_ts": after_ts,
         "after_seq": after_seq, "limit": limit}).all()
    return [(row[4], row[5], history_item(*row[:5])) for row in rows]


def history_item(event_id: str, topic: str, event_type: str, data_json: str | None, ts: int) -> dict[str, Any]:
    """One event as history and live frames show it."""
    return {"id": event_id, "topic": topic, "type": event_type,
            "data": orjson.loads(data_json) if data_json is not None else None, "ts": ts}


def purge(session: Session, *, tenant_id: str, topic: Topic, filters: Filters) -> int:
    """Delete the matching events of TOPIC's subtree from the event log; open deliveries of them end.

    Each open delivery job of a purged event is ended (``disabled``) with one recorded attempt,
    so nothing dangles. The caller commits.
    """
    where, params = _where(topic, filters)
    params["tenant"] = tenant_id
    doomed = f"SELECT b.seq FROM broker_events b WHERE {where}"
    ended = session.execute(text(f"""
        UPDATE delivery_jobs j SET state = :ended, lease_until = NULL, updated_at = now()
          FROM subscriptions s
         WHERE j.tenant_id = :tenant AND j.event_seq IN ({doomed}) AND j.{OPEN_JOBS}
           AND s.id = j.subscription_id
        RETURNING j.id, j.subscription_id, j.event_seq, j.attempts, s.sink_kind"""),
        {**params, "ended": PURGED_STATE}).all()
    _record_purged_attempts(session, tenant_id, ended)
    deleted = session.execute(text(f"""
        DELETE FROM event_log WHERE tenant_id = :tenant AND source = :source AND seq IN ({doomed})"""),
        {**params, "source": BROKER_SOURCE}).rowcount
    return max(deleted, 0)


def _record_purged_attempts(session: Session, tenant_id: str, ended: list[Any]) -> None:
    if not ended:
        return
    session.execute(text("""
        INSERT INTO delivery_attempts (id, job_id, tenant_id, subscription_id, sink_kind, event_seq, attempt_no,
                                       outcome, status_code, error_class, detail, latency_ms, attempted_at)
        VALUES (:id, :job, :tenant, :subscription, :kind, :seq, :attempt_no, :outcome, 0, '', :detail, 0, now())
    """), [{"id": uuid.UUID(str(uuid_utils.uuid7())), "job": row[0], "tenant": tenant_id, "subscription": row[1],
            "seq": row[2], "attempt_no": row[3] + 1, "kind": row[4], "detail": PURGED_DETAIL,
            "outcome": Outcome.disabled.value} for row in ended])

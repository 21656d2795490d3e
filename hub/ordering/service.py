"""Reads and resumes of an ordered subscription's blocked keys (N77).

Every call is scoped by the subscription the caller reached (``get_subscription`` ran first: the uniform
404) and its tenant. A page is one range of ``ix_ordered_keys_blocked`` (subscription, blocked_at), oldest
block first, with the key breaking ties; the resume statements are the data plane's
(``hub.dataplane.ordering``: the key row's lock, then retry or skip), run in the request's transaction.
"""

from __future__ import annotations

import base64
import binascii
import uuid
from dataclasses import dataclass
from datetime import datetime
from typing import Any

import orjson
from sqlalchemy import text
from sqlmodel import Session

from hub.dataplane import ordering as ordered_keys
from hub.dataplane.due_channel import NOTIFY_SQL
from hub.dataplane.models import JobState, state_in
from hub.deliverylog.errors import EVENT_NOT_RETAINED, refused
from hub.deliverylog.redeliver import check_deliverable
from hub.errors import InvalidCursor
from hub.ordering.errors import KeyNotBlocked, OrderedKeyNotFound
from hub.subscription.models import Subscription

CURSOR_NOT_ISSUED = "after is not a cursor this list of blocked keys issued"
# The head's job and event, its last attempt, and the count of the key's waiting jobs (the partial
# index ix_delivery_jobs_waiting: its predicate is spelled the same way).
KEY_SELECT = f"""
SELECT k.ordering_key, k.blocked_at, k.head_job_id, COALESCE(j.attempts, 0) AS attempts, j.event_seq, e.ce_id,
       e.event_type,
       a.attempted_at, a.outcome, a.status_code, a.error_class, a.detail,
       (SELECT count(*) FROM delivery_jobs
         WHERE subscription_id = k.subscription_id AND ordering_key = k.ordering_key
           AND {state_in((JobState.waiting,))}) AS waiting
  FROM ordered_keys AS k
  LEFT JOIN delivery_jobs AS j ON j.id = k.head_job_id  -- LEFT: a head the retention sweep removed still lists
  LEFT JOIN event_log AS e ON e.tenant_id = j.tenant_id AND e.seq = j.event_seq
  LEFT JOIN LATERAL (
    SELECT attempted_at, outcome, status_code, error_class, detail FROM delivery_attempts
     WHERE job_id = k.head_job_id AND job_id IS NOT NULL
     ORDER BY attempted_at DESC, attempt_no DESC LIMIT 1) AS a ON true
 WHERE k.subscription_id = :sub AND k.tenant_id = :tenant
"""
PAGE_SQL = text(f"""{KEY_SELECT}   AND k.blocked_at IS NOT NULL AND (k.blocked_at, k.ordering_key) > (:at, :key)
 ORDER BY k.blocked_at, k.ordering_key LIMIT :limit""")
ONE_SQL = text(f"{KEY_SELECT}   AND k.ordering_key = :key")
FIRST = (datetime.fromisoformat("0001-01-01T00:00:00+00:00"), "")


@dataclass(frozen=True)
class BlockedPage:
    rows: list[Any]
    next_cursor: str


def encode_cursor(blocked_at: datetime, key: str) -> str:
    raw = orjson.dumps([blocked_at.isoformat(), key])
    return base64.urlsafe_b64encode(raw).decode("ascii").rstrip("=")


def decode_cursor(raw: str) -> tuple[datetime, str]:
    """The (blocked_at, key) a cursor of this list carries; 400 ``invalid_cursor`` otherwise."""
    try:
        at, key = orjson.loads(base64.urlsafe_b64decode(raw + "=" * (-len(raw) % 4)))
        moment = datetime.fromisoformat(at)
    except (binascii.Error, ValueError, TypeError, orjson.JSONDecodeError):
        raise InvalidCursor(CURSOR_NOT_ISSUED) from None
    if not isinstance(key, str) or moment.tzinfo is None:
        raise InvalidCursor(CURSOR_NOT_ISSUED)
    return moment, key


def list_blocked(*, session: Session, sub: Subscription, limit: int, after: str | None) -> BlockedPage:
    """A page of the subscription's blocked keys, oldest block first, and the next cursor ("" at the end)."""
    at, key = decode_cursor(after) if after else FIRST
    rows = list(session.execute(PAGE_SQL, {"sub": sub.id, "tenant": sub.tenant_id, "at": at, "key": key,
                                           "limit": limit + 1}))
    page, more = rows[:limit], len(rows) > limit
    return BlockedPage(page, encode_cursor(page[-1].blocked_at, page[-1].ordering_key) if more else "")


def resume(*, session: Session, sub: Subscription, key: str, action: str) -> uuid.UUID:
    """Resume a blocked key: ``retry`` returns the new head job, ``skip`` the head passed over.

    404 ``ordered_key_not_found`` for a key with no open row, 409 ``key_not_blocked`` for one whose head
    is still being delivered, 409 like a resend for a subscription the engine would not deliver to, and
    409 ``event_not_retained`` for a retry whose event retention removed.
    """
    row = session.execute(ONE_SQL, {"sub": sub.id, "tenant": sub.tenant_id, "key": key}).first()
    if row is None:
        raise OrderedKeyNotFound()
    if row.blocked_at is None:
        raise KeyNotBlocked()
    check_deliverable(sub)
    if action == "retry" and row.ce_id is None:
        raise refused(EVENT_NOT_RETAINED)
    steps = ordered_keys.retry_head(sub.id, key) if action == "retry" else ordered_keys.skip_head(sub.id, key)
    job_id = ordered_keys.run(ordered_keys.session_cursor(session), steps)
    if job_id is None:  # another resume took the key between the read and the lock
        raise KeyNotBlocked()
    session.execute(text(NOTIFY_SQL))
    return job_id

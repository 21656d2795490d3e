"""The pull inbox: pages of a pull subscription's events, read from the tenant's event log.

There is no per-subscription copy of events. A read scans the tenant's log in ``seq`` order after
the starting cursor and keeps the events the subscription's selectors match (the predicate ingest
uses, ``EventSelector.matches``). The read is the acknowledgment: the subscription's durable
cursor moves to the read's position in one ``GREATEST`` upsert, so it never moves backwards
whatever readers race.

The position is the last returned ``seq`` when the page filled (the rest of that scan is not
acknowledged, it may hold matches); otherwise it is the last ``seq`` scanned, so events the
selectors filtered out are not scanned again. A read examines at most ``pull_scan_rows`` rows of
the log; a subscription that matches little in a large log catches up over several reads, each
moving the cursor forward (``Page.caught_up`` is false until a read reaches the end of the log).
A disabled subscription (``enabled: false``) reads an empty page and its cursor does not move
(docs/contract-notes.md N32).

Ingest numbers a tenant's events under a row lock held until commit, so commit order is ``seq``
order: a statement never sees ``seq`` N+1 committed while N is still pending, and skipping over
scanned rows cannot skip an event that commits late.
"""

from __future__ import annotations

import re
import uuid
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from sqlalchemy import Connection
from sqlmodel import Session, col, select

from hub.auth.decision import ask_decision_service
from hub.config import get_settings
from hub.dataplane.models import PullCursor
from hub.errors import DecisionTimeout, DecisionUnavailable, NotFound
from hub.ids import parse_uuid
from hub.providers.registry import provider_for
from hub.pull.errors import DelegatedPartyUnconfirmed
from hub.subscription import service as subscriptions
from hub.subscription.models import Subscription
from hub.subscription.filters import Predicate, compile_filter, event_document
from hub.subscription.selectors import EventSelector, selector_of
from hub.subscription.values import Caller

DEFAULT_LIMIT, MIN_LIMIT, MAX_LIMIT = 100, 1, 500
MAX_SEQ = 2**63 - 1
_DIGITS = re.compile(r"[0-9]{1,19}")
#: Rows after the first fetch are read in chunks of this size (the first fetch is one page's worth).
SCAN_CHUNK = 1000

SCAN_SQL = """
SELECT seq, ce_id, event_type, source, schema_major, delegated_scope, schema_version, received_at, data::text
  FROM event_log
 WHERE tenant_id = %s AND seq > %s::bigint
 ORDER BY seq
 LIMIT %s
"""
# A subscription with a payload filter (N53) also reads each row's attributes, as ingest matched them.
SCAN_FILTERED_SQL = SCAN_SQL.replace("data::text\n", "data::text, attributes::text\n", 1)
BASE64_SQL = """
SELECT seq FROM event_log WHERE tenant_id = %s AND seq = ANY(%s) AND attributes->>'data_base64' IS NOT NULL
"""
# A forward seek moves the cursor to the seek point, but never past the tenant's newest event:
# the caller gives up the unread range that exists, not events that have not arrived yet.
ACK_SQL = """
INSERT INTO pull_cursors (subscription_id, tenant_id, acked_seq, updated_at)
VALUES (%(sub)s, %(tenant)s::text,
        GREATEST(%(position)s::bigint, LEAST(%(seek)s::bigint, (SELECT coalesce(max(seq), 0) FROM event_log
                                                                WHERE tenant_id = %(tenant)s::text))),
        now())
ON CONFLICT (subscription_id) DO UPDATE
   SET acked_seq = GREATEST(pull_cursors.acked_seq, EXCLUDED.acked_seq), updated_at = EXCLUDED.updated_at
RETURNING acked_seq
"""

TARGET_COLUMNS = (Subscription.id, Subscription.tenant_id, Subscription.sink_kind, Subscription.delegated_scope,
                  Subscription.event_types, Subscription.event_majors, Subscription.origin,
                  Subscription.schema_major, Subscription.enabled, Subscription.payload_filter)

# seq, ce_id, event_type, source, schema_major, delegated_scope, schema_version, received_at, data
LogRow = tuple[Any, ...]


@dataclass(frozen=True)
class Page:
    """One read: the matched rows, ``next_cursor``, and where the read left the log."""

    rows: list[LogRow]
    next_cursor: int | None
    position: int
    caught_up: bool
    base64_seqs: frozenset[int] = frozenset()


def parse_after(raw: str | None) -> int | None:
    """An explicit ``after`` cursor; None when absent, malformed, negative or out of range."""
    if raw is None or not _DIGITS.fullmatch(raw):
        return None
    value = int(raw)
    return value if value <= MAX_SEQ else None


def clamp_limit(raw: str | None) -> int:
    """The page size: clamped to 1-500; absent or not an integer means the default, 100."""
    try:
        value = int(raw) if raw is not None else DEFAULT_LIMIT
    except ValueError:
        return DEFAULT_LIMIT
    return min(max(value, MIN_LIMIT), MAX_LIMIT)


@dataclass(frozen=True)
class PullTarget:
    """The pull subscription a read is for: its selectors and its durable cursor."""

    id: uuid.UUID
    tenant_id: str
    delegated_scope: str | None
    selector: EventSelector
    acked_seq: int
    enabled: bool
    payload: Predicate | None = None


def find_pull_subscription(*, session: Session, caller: Caller, subscription_id: str) -> PullTarget:
    """The caller's live pull subscription and its cursor: existence gate, then kind gate, one uniform 404."""
    parsed = parse_uuid(subscription_id)
    if parsed is None:
        raise NotFound("subscription not found")
    query = (select(*TARGET_COLUMNS, PullCursor.acked_seq)
             .outerjoin(PullCursor, col(PullCursor.subscription_id) == Subscription.id)
             .where(Subscription.id == parsed, *subscriptions.visible_to(caller)))
    row = session.execute(query).first()
    if row is None or provider_for(row.sink_kind).is_push:
        raise NotFound("subscription not found")
    payload = compile_filter(row.payload_filter) if row.payload_filter is not None else None
    return PullTarget(row.id, row.tenant_id, row.delegated_scope, selector_of(row), row.acked_seq or 0,
                      row.enabled, payload)


def confirm_delegated_party(target: PullTarget) -> None:
    """With a decision service configured, a delegated subscription's party must be confirmed.

    The service is asked ``{subject: <delegated scope>, tenant, resource: "delegated_party",
    action: "confirm"}``; no decision, no answer in time, or a refusal is a 503.
    """
    if not target.delegated_scope or not get_settings().decision_service_url:
        return
    try:
        confirmed = ask_decision_service(subject=target.delegated_scope, tenant=target.tenant_id,
                                         resource="delegated_party", action="confirm")
    except (DecisionUnavailable, DecisionTimeout) as exc:
        raise DelegatedPartyUnconfirmed() from exc
    if not confirmed:
        raise DelegatedPartyUnconfirmed()


def pull_events(*, session: Session, caller: Caller, subscription_id: str, after: int | None,
                limit: int) -> Page:
    """Read one page for the caller's pull subscription and acknowledge it (cursor-as-ack)."""
    # Each statement commits by itself: the acknowledgment is one statement, and no transaction
    # stays open around the decision service call (two round trips fewer than BEGIN ... COMMIT).
    connection = session.connection(execution_options={"isolation_level": "AUTOCOMMIT"})
    target = find_pull_subscription(session=session, caller=caller, subscription_id=subscription_id)
    confirm_delegated_party(target)
    if not target.enabled:  # N32: entitled to nothing while disabled; the cursor stays where it was
        return Page([], None, target.acked_seq, caught_up=True)
    start = after if after is not None else target.acked_seq
    page = read_page(connection, tenant_id=target.tenant_id, selector=target.selector, start=start, limit=limit,
                     scan_budget=max(get_settings().pull_scan_rows, limit), payload=target.payload)
    # Scanned rows exist, so their position is acknowledged as is; a seek point may lie beyond the log.
    scanned_to = page.position if page.position > start else 0
    acknowledge(connection, subscription_id=target.id, tenant_id=target.tenant_id, position=scanned_to,
                seek=after or 0)
    return page


def _selected(selector: EventSelector, payload: Predicate | None, row: LogRow) -> bool:
    """Whether the subscription gets this log row: its selectors, then its payload filter (row[9]: attributes)."""
    if not selector.matches(row[2], row[3], row[4], row[5]):
        return False
    return payload is None or payload(*event_document(row[9], row[8]))


def read_page(connection: Connection, *, tenant_id: str, selector: EventSelector, start: int, limit: int,
              scan_budget: int, payload: Predicate | None = None) -> Page:
    """Scan the log after ``start`` for up to ``limit`` matching events, at most ``scan_budget`` rows."""
    sql = SCAN_SQL if payload is None else SCAN_FILTERED_SQL
    matched: list[LogRow] = []
    position, scanned, size = start, 0, limit
    # The driver's own cursor on the same connection: plain tuples, no per-row result objects.
    scan = connection.connection.driver_connection.cursor()
    while scanned < scan_budget:
        size = min(size, scan_budget - scanned)
        rows = scan.execute(sql, (tenant_id, position, size)).fetchall()
        for row in rows:
            if _selected(selector, payload, row):
                matched.append(row[:9])
                if len(matched) == limit:
                    return _page(connection, tenant_id, matched, limit, position=row[0], caught_up=False)
        scanned += len(rows)
        if rows:
            position = rows[-1][0]
        if len(rows) < size:
            return _page(connection, tenant_id, matched, limit, position=position, caught_up=True)
        size = SCAN_CHUNK
    return _page(connection, tenant_id, matched, limit, position=position, caught_up=False)


def _page(connection: Connection, tenant_id: str, matched: list[LogRow], limit: int, *, position: int,
          caught_up: bool) -> Page:
    next_cursor = matched[-1][0] if len(matched) == limit else None
    return Page(matched, next_cursor, position, caught_up, _base64_seqs(connection, tenant_id, matched))


def _base64_seqs(connection: Connection, tenant_id: str, matched: Sequence[LogRow]) -> frozenset[int]:
    """Of the rows whose data is not a JSON object, those holding base64 text of binary data."""
    candidates = [row[0] for row in matched if row[8] is not None and not row[8].lstrip().startswith("{")]
    if not candidates:
        return frozenset()
    return frozenset(seq for (seq,) in connection.exec_driver_sql(BASE64_SQL, (tenant_id, candidates)))


def acknowledge(connection: Connection, *, subscription_id: uuid.UUID, tenant_id: str, position: int,
                seek: int) -> int:
    """Move the durable cursor forward to ``position`` (or the seek point); returns the cursor."""
    params = {"sub": subscription_id, "tenant": tenant_id, "position": position, "seek": seek}
    return int(connection.exec_driver_sql(ACK_SQL, params).scalar_one())

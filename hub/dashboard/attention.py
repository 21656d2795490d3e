"""``GET /v1/dashboard/subscriptions``: the subscriptions needing attention, ranked and paged.

An item's reasons, in severity order: ``auto_disabled``, ``verification_not_active``,
``manually_disabled``, ``dead_lettered_in_period``, and
``failed_in_period_without_success_after_failure`` (a failed attempt in the period and no
delivery since the last one). The first reason sets the rank. Order: rank, then the last failure
(most recent first, never-failed last), then the id. Pages are keyset over that sort key.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import Any, Literal, get_args

from sqlalchemy import Connection
from sqlmodel import Session

from hub.dashboard import cursor as cursors
from hub.dashboard import queries
from hub.dashboard.period import Period, PeriodRequest, resolve, rows_by_hour_part
from hub.dashboard.queries import Scope
from hub.dashboard.snapshot import snapshot_read
from hub.retention.service import coverage_start
from hub.subscription.deliverability import by_verification
from hub.subscription.projection import timestamp

AttentionReason = Literal["auto_disabled", "verification_not_active", "manually_disabled",
                          "dead_lettered_in_period", "failed_in_period_without_success_after_failure"]
REASONS: tuple[str, ...] = get_args(AttentionReason)  # in severity order
NO_ATTEMPTS = (0, 0, 0, None, None, None)


@dataclass
class Item:
    body: dict[str, Any]
    key: cursors.SortKey


@dataclass
class Page:
    snapshot_at: datetime
    period: Period
    items: list[dict[str, Any]]
    next_cursor: str


def _latest(*moments: datetime | None) -> datetime | None:
    present = [moment for moment in moments if moment is not None]
    return max(present) if present else None


def _reasons(row: Any, counts: tuple, last_success: datetime | None) -> list[str]:
    _, failed, dead, _, _, last_failed = counts
    flags = (
        bool(row.auto),
        not by_verification(row.verification_state).ok,
        not row.enabled and not row.auto,
        dead > 0,
        failed > 0 and (last_success is None or last_success < last_failed),
    )
    return [reason for reason, present in zip(REASONS, flags, strict=True) if present]


def _item(row: Any, counts: tuple) -> Item | None:
    total, failed, dead, period_success, period_failure, _ = counts
    last_success = _latest(row.last_success_at, period_success)
    last_failure = _latest(row.last_failure_at, period_failure)
    reasons = _reasons(row, counts, last_success)
    if not reasons:
        return None
    failure_micros = -cursors.micros(last_failure) if last_failure else 0
    key = (REASONS.index(reasons[0]), 0 if last_failure else 1, failure_micros, str(row.id))
    body = {
        "subscription_id": str(row.id), "sink_kind": row.sink_kind, "enabled": row.enabled,
        "verification_state": row.verification_state, "auto_disabled": bool(row.auto),
        "disabled_reason": row.reason or "",
        "last_success_at": timestamp(last_success) if last_success else None,
        "last_failure_at": timestamp(last_failure) if last_failure else None,
        "period_delivery_attempts": total, "period_failed_attempts": failed,
        "period_dead_lettered_attempts": dead, "attention_reasons": reasons,
    }
    return Item(body, key)


def _merged(found: tuple, more: tuple) -> tuple:
    """Two parts' counts of one subscription as one: counts add, the latest instants win."""
    return (*(a + b for a, b in zip(found[:3], more[:3], strict=True)),
            *(_latest(a, b) for a, b in zip(found[3:], more[3:], strict=True)))


def _attempt_counts(connection: Connection, scope: Scope, period: Period) -> dict[Any, tuple]:
    """Per subscription: attempts, failed, dead-lettered, last delivered, last failed or dead-lettered,
    last failed; whole hours from the hourly rollup, the partial ends from the attempts."""
    counts: dict[Any, tuple] = {}
    for row in rows_by_hour_part(connection, period, raw=queries.attention_attempts(scope),
                                 rollup=queries.attention_attempts_rollup(scope), params=scope.params()):
        counts[row[0]] = _merged(counts.get(row[0], NO_ATTEMPTS), tuple(row[1:]))
    return counts


def _ranked(connection: Connection, scope: Scope, period: Period) -> list[Item]:
    counts = _attempt_counts(connection, scope, period)
    rows = connection.execute(queries.attention_subscriptions(scope), scope.params()).mappings()
    items = []
    for row in rows:
        view = _Row(**row)
        item = _item(view, counts.get(view.id, NO_ATTEMPTS))
        if item is not None:
            items.append(item)
    return sorted(items, key=lambda item: item.key)


@dataclass
class _Row:
    id: Any
    sink_kind: str
    enabled: bool
    verification_state: str
    auto: bool
    reason: str | None
    last_success_at: datetime | None
    last_failure_at: datetime | None


def read_page(*, session: Session, scope: Scope, caller: str, request: PeriodRequest, limit: int,
              cursor: str | None) -> Page:
    """One page at one database instant; the cursor is checked against the resolved period."""
    with snapshot_read(session) as (connection, snapshot_at):
        period = resolve(request, snapshot_at=snapshot_at, coverage=coverage_start(connection))
        after = cursors.verify(cursor, period=period, caller=caller) if cursor else None
        items = _ranked(connection, scope, period)
    if after is not None:
        items = [item for item in items if item.key > after]
    page, more = items[:limit], len(items) > limit
    next_cursor = cursors.sign(after=page[-1].key, period=period, caller=caller) if more else ""
    return Page(snapshot_at=snapshot_at, period=period, items=[item.body for item in page], next_cursor=next_cursor)

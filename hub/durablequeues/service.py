"""Reading a tenant's durable queues: the rows (owner, filters, times) with the broker's counts.

Keyword-only functions raising domain errors: an id the tenant does not own, or one breaking the
seed's rule, is the uniform :class:`~hub.errors.NotFound`; an unreachable broker is
:class:`~hub.consumer.errors.BrokerUnavailable`.
"""

from __future__ import annotations

import asyncio
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

from sqlalchemy import text

from hub.config import get_settings
from hub.consumer import topology
from hub.consumer.errors import BrokerUnavailable
from hub.consumer.holds import unacknowledged
from hub.consumer.service import BROKER_FAULTS, QUEUE_ID
from hub.consumer.topology import ConsumerRabbit
from hub.db import session_scope
from hub.errors import NotFound

MAX_LIMIT, DEFAULT_LIMIT = 100, 50
COLUMNS = "queue_id, filter_groups, created_at, last_attached_at"
PAGE_SQL = (f"SELECT {COLUMNS} FROM consumer_queues WHERE tenant_id = :t AND durable AND queue_id > :after "
            "ORDER BY queue_id LIMIT :n")
ONE_SQL = f"SELECT {COLUMNS} FROM consumer_queues WHERE tenant_id = :t AND durable AND queue_id = :q"


@dataclass(frozen=True, slots=True)
class Page:
    queues: list[dict[str, Any]]
    next_cursor: str | None


def _rows(sql: str, params: dict[str, Any]) -> list[Any]:
    with session_scope() as session:
        return list(session.execute(text(sql), params).all())


def _stamp(moment: datetime) -> str:
    return moment.isoformat().replace("+00:00", "Z")


async def _counts(broker: ConsumerRabbit, queue_id: str) -> tuple[int | None, int | None]:
    try:
        counts = await topology.queue_counts(broker, queue_id)
    except BROKER_FAULTS as exc:
        raise BrokerUnavailable() from exc
    return counts or (None, None)


async def _describe(broker: ConsumerRabbit, rows: list[Any]) -> list[dict[str, Any]]:
    held = await asyncio.to_thread(unacknowledged, [row[0] for row in rows])
    idle = timedelta(seconds=get_settings().consumer_durable_idle_seconds)
    described = []
    for queue_id, groups, created_at, attached_at in rows:
        depth, consumers = await _counts(broker, queue_id)
        described.append({
            "queue_id": queue_id, "filter_groups": groups, "depth": depth, "unacknowledged": held.get(queue_id, 0),
            "consumers": consumers, "last_consumer_at": _stamp(attached_at),
            "idle_expires_at": None if consumers else _stamp(attached_at + idle), "created_at": _stamp(created_at),
        })
    return described


def page_limit(raw: str | None) -> int:
    """The page size: a positive integer clamped to MAX_LIMIT; anything else is the default."""
    try:
        limit = int(raw or "")
    except ValueError:
        return DEFAULT_LIMIT
    return min(limit, MAX_LIMIT) if limit > 0 else DEFAULT_LIMIT


async def list_queues(*, broker: ConsumerRabbit, tenant_id: str, limit: int, after: str = "") -> Page:
    """One page of the tenant's durable queues in queue-id order; ``after`` is the previous page's cursor."""
    rows = await asyncio.to_thread(_rows, PAGE_SQL, {"t": tenant_id, "after": after, "n": limit + 1})
    more = len(rows) > limit
    rows = rows[:limit]
    return Page(await _describe(broker, rows), rows[-1][0] if more else None)


async def get_queue(*, broker: ConsumerRabbit, tenant_id: str, queue_id: str) -> dict[str, Any]:
    """The tenant's durable queue QUEUE_ID, or the uniform NotFound."""
    if not QUEUE_ID.fullmatch(queue_id):
        raise NotFound()
    rows = await asyncio.to_thread(_rows, ONE_SQL, {"t": tenant_id, "q": queue_id})
    if not rows:
        raise NotFound()
    return (await _describe(broker, rows))[0]

"""Per-subscription delivery health, and auto-disable after sustained failure.

Each batch folds its tries into one row per subscription (last success, last failure, failing
since, consecutive failures). A success clears the failing-since mark. When a subscription has
been failing with no success for the auto-disable window, it is disabled
(``disabled_reason=sustained_failure_5d12h``) and a ``hub.destination.disabled`` event is
published to the hub's own topic, so the ingestion path delivers it to every subscription of
the tenant that asked for it. The event id is fixed by the subscription and its failing-since
mark, so a batch that publishes and then fails to commit republishes the same event (deduplicated
at ingestion) on its next run.
"""

from __future__ import annotations

import asyncio
import logging
import uuid
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

import psycopg
from confluent_kafka import KafkaException

from hub.errors import HubError
from hub.metrics import AUTO_DISABLED
from hub.subscription.versions import BUMP_VERSION_SQL

log = logging.getLogger("hub.deliver.health")

AUTO_DISABLE_REASON = "sustained_failure_5d12h"
DISABLED_EVENT = "hub.destination.disabled"

HEALTH_SQL = """
INSERT INTO subscription_health AS h (subscription_id, tenant_id, last_success_at, last_failure_at, failing_since,
                                      consecutive_failures, auto_disabled, disabled_reason, updated_at)
SELECT id, tenant, ok_at, failed_at, since, failures, false, '', %s
  FROM unnest(%s::uuid[], %s::text[], %s::timestamptz[], %s::timestamptz[], %s::timestamptz[], %s::int[])
       AS v(id, tenant, ok_at, failed_at, since, failures)
 ORDER BY id
ON CONFLICT (subscription_id) DO UPDATE SET
    last_success_at = COALESCE(EXCLUDED.last_success_at, h.last_success_at),
    last_failure_at = COALESCE(EXCLUDED.last_failure_at, h.last_failure_at),
    failing_since = CASE WHEN EXCLUDED.last_success_at IS NOT NULL THEN EXCLUDED.failing_since
                         ELSE COALESCE(h.failing_since, EXCLUDED.failing_since) END,
    consecutive_failures = CASE WHEN EXCLUDED.last_success_at IS NOT NULL THEN EXCLUDED.consecutive_failures
                                ELSE h.consecutive_failures + EXCLUDED.consecutive_failures END,
    updated_at = EXCLUDED.updated_at
"""
AUTO_DISABLE_SQL = """
UPDATE subscriptions AS s
   SET enabled = false, auto_disabled = true, disabled_reason = %s, updated_at = %s
  FROM subscription_health AS h
 WHERE h.subscription_id = s.id AND s.id = ANY(%s) AND s.enabled AND s.deleted_at IS NULL
   AND h.failing_since IS NOT NULL AND h.failing_since <= %s
RETURNING s.id, s.tenant_id, s.delegated_scope, s.name, s.sink_kind, h.failing_since, h.last_failure_at,
          h.consecutive_failures
"""
MARK_HEALTH_SQL = """
UPDATE subscription_health SET auto_disabled = true, disabled_reason = %s, updated_at = %s
 WHERE subscription_id = ANY(%s)
"""


@dataclass
class HealthFold:
    """One subscription's tries in a batch, in the order they finished."""

    tenant_id: str
    last_success_at: datetime | None = None
    last_failure_at: datetime | None = None
    failing_since: datetime | None = None  # first failure after the batch's last success
    failures: int = 0  # failures after the batch's last success

    def add(self, *, ok: bool, at: datetime) -> None:
        if ok:
            self.last_success_at, self.failing_since, self.failures = at, None, 0
        else:
            self.last_failure_at = at
            self.failing_since = self.failing_since or at
            self.failures += 1


def fold(tries: list[tuple[uuid.UUID, str, bool, datetime]]) -> dict[uuid.UUID, HealthFold]:
    """Fold (subscription, tenant, ok, finished_at) tries into one health change per subscription."""
    folds: dict[uuid.UUID, HealthFold] = {}
    for subscription_id, tenant_id, ok, at in sorted(tries, key=lambda item: item[3]):
        folds.setdefault(subscription_id, HealthFold(tenant_id)).add(ok=ok, at=at)
    return folds


async def record_health(cursor: psycopg.AsyncCursor, folds: dict[uuid.UUID, HealthFold], now: datetime) -> None:
    if not folds:
        return
    ids = sorted(folds)
    await cursor.execute(HEALTH_SQL, (
        now, ids, [folds[i].tenant_id for i in ids], [folds[i].last_success_at for i in ids],
        [folds[i].last_failure_at for i in ids], [folds[i].failing_since for i in ids],
        [folds[i].failures for i in ids]))


async def auto_disable(cursor: psycopg.AsyncCursor, *, failing: list[uuid.UUID], window_seconds: float,
                       now: datetime) -> list[dict[str, Any]]:
    """Disable the failing subscriptions past the window and publish their lifecycle events.

    Runs inside the batch's transaction; the events are acknowledged by Kafka before it commits.
    """
    if not failing:
        return []
    cutoff = now - timedelta(seconds=window_seconds)
    try:
        # A savepoint: when Kafka cannot take the events, only the disabling waits for a later failure;
        # the batch's own bookkeeping still commits.
        async with cursor.connection.transaction():
            disabled = await _disable(cursor, failing=failing, cutoff=cutoff, now=now)
    except (HubError, KafkaException) as exc:
        log.warning("auto-disable postponed: the lifecycle event was not published",
                    extra={"fields": {"error": type(exc).__name__}})
        return []
    for row in disabled:
        AUTO_DISABLED.labels(sink_kind=row["sink_kind"]).inc()
    return disabled


async def _disable(cursor: psycopg.AsyncCursor, *, failing: list[uuid.UUID], cutoff: datetime,
                   now: datetime) -> list[dict[str, Any]]:
    await cursor.execute(AUTO_DISABLE_SQL, (AUTO_DISABLE_REASON, now, sorted(failing), cutoff))
    names = [column.name for column in cursor.description or ()]
    disabled = [dict(zip(names, row)) for row in await cursor.fetchall()]
    if not disabled:
        return []
    await cursor.execute(MARK_HEALTH_SQL, (AUTO_DISABLE_REASON, now, [row["id"] for row in disabled]))
    await cursor.execute(BUMP_VERSION_SQL)
    for row in disabled:
        await asyncio.to_thread(publish_disabled, row, now)
    return disabled


def publish_disabled(row: dict[str, Any], now: datetime) -> str:
    """Publish ``hub.destination.disabled`` for one auto-disabled subscription; returns the event id."""
    from hub.lifecycle.publisher import emit_lifecycle_event  # Kafka client only when it is needed

    event_id = str(uuid.uuid5(uuid.NAMESPACE_URL, f"streaming-hub:auto-disable:{row['id']}:"
                                                  f"{row['failing_since'].isoformat()}"))
    data = {
        "subscriptionId": str(row["id"]),
        "name": row["name"],
        "sinkKind": row["sink_kind"],
        "disabledReason": AUTO_DISABLE_REASON,
        "failingSince": row["failing_since"].isoformat(),
        "lastFailureAt": row["last_failure_at"].isoformat() if row["last_failure_at"] else None,
        "consecutiveFailures": row["consecutive_failures"],
        "disabledAt": now.isoformat(),
    }
    emit_lifecycle_event(tenant_id=row["tenant_id"], event_type=DISABLED_EVENT, data=data,
                         delegated_scope=row["delegated_scope"], event_id=event_id)
    log.warning("subscription auto-disabled after sustained failure",
                extra={"fields": {"tenant_id": row["tenant_id"], "subscription_id": str(row["id"])}})
    return event_id

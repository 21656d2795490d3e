"""Which subscriptions an event goes to, from an in-process cache of every live subscription.

The cache reloads when ``subscription_versions.version`` moves (every subscription change bumps
it in the same transaction); the worker asks for the version once per batch, so matching costs
no query per event. Results are memoised per (tenant, type, source, major, delegated scope).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from hub.sinks.vocabulary import SinkKind
from hub.subscription.models import Subscription
from hub.tableshape import column_list

_MEMO_LIMIT = 100_000

_LOAD_COLUMNS = column_list(Subscription, "id", "tenant_id", "delegated_scope", "sink_kind", "event_types",
                            "event_majors", "origin", "schema_major", "enabled", "auto_disabled")
_LOAD_SQL = f"SELECT {_LOAD_COLUMNS} FROM {Subscription.__tablename__} WHERE deleted_at IS NULL"


@dataclass(frozen=True, slots=True)
class CachedSubscription:
    id: str
    tenant_id: str
    delegated_scope: str | None
    pull: bool
    deliverable: bool
    event_types: frozenset[str] | None
    event_majors: dict[str, int]
    origin: str | None
    default_major: int

    def major_for(self, event_type: str) -> int:
        """The schema major this subscription receives ``event_type`` at (event_majors, pin, or 1)."""
        return self.event_majors.get(event_type, self.default_major)

    def matches(self, event_type: str, source: str, major: int, delegated_scope: str | None) -> bool:
        if self.event_types is not None and event_type not in self.event_types:
            return False
        if self.origin is not None and self.origin != source:
            return False
        if self.delegated_scope is not None and self.delegated_scope != delegated_scope:
            return False
        return self.major_for(event_type) == major


@dataclass(frozen=True, slots=True)
class Match:
    """Push subscriptions that get a delivery job, and pull subscriptions the event is eligible for."""

    push: tuple[str, ...]
    pull: tuple[str, ...]


NO_MATCH = Match((), ())


def subscription_from_row(row: tuple[Any, ...]) -> CachedSubscription:
    sub_id, tenant_id, scope, sink_kind, event_types, event_majors, origin, schema_major, enabled, auto = row
    return CachedSubscription(
        id=str(sub_id), tenant_id=tenant_id, delegated_scope=scope or None, pull=sink_kind == SinkKind.pull,
        # A push job is only created for a subscription that can deliver now; pull eligibility is
        # recorded for every live pull subscription (the dashboard counts the ones that exist now).
        deliverable=bool(enabled) and not auto,
        event_types=frozenset(event_types) if event_types else None,
        event_majors={str(key): int(value) for key, value in (event_majors or {}).items()},
        origin=origin or None, default_major=int(schema_major or 1),
    )


class SubscriptionCache:
    """Every live subscription, grouped by tenant, reloaded when the version counter moves."""

    def __init__(self) -> None:
        self.version: int | None = None
        self.reloads = 0
        self._by_tenant: dict[str, list[CachedSubscription]] = {}
        self._memo: dict[tuple[str, str, str, int, str | None], Match] = {}

    def refresh(self, cursor: Any) -> bool:
        """Reload if the version moved; one cheap query otherwise. Returns whether it reloaded."""
        row = cursor.execute("SELECT version FROM subscription_versions WHERE id = 1").fetchone()
        version = row[0] if row else 0
        if version == self.version:
            return False
        # The version is read first: a change committed in between is loaded now and reloaded
        # again next batch, never missed.
        self.load([subscription_from_row(item) for item in cursor.execute(_LOAD_SQL).fetchall()], version)
        return True

    def load(self, subscriptions: list[CachedSubscription], version: int | None) -> None:
        by_tenant: dict[str, list[CachedSubscription]] = {}
        for subscription in subscriptions:
            by_tenant.setdefault(subscription.tenant_id, []).append(subscription)
        self._by_tenant, self._memo, self.version = by_tenant, {}, version
        self.reloads += 1

    def match(self, tenant_id: str, event_type: str, source: str, major: int, scope: str | None) -> Match:
        key = (tenant_id, event_type, source, major, scope)
        found = self._memo.get(key)
        if found is not None:
            return found
        candidates = self._by_tenant.get(tenant_id)
        if not candidates:
            found = NO_MATCH
        else:
            hits = [sub for sub in candidates if sub.matches(event_type, source, major, scope)]
            found = Match(
                push=tuple(sub.id for sub in hits if not sub.pull and sub.deliverable),
                pull=tuple(sorted(sub.id for sub in hits if sub.pull)),
            )
        if len(self._memo) >= _MEMO_LIMIT:
            self._memo.clear()
        self._memo[key] = found
        return found

"""Which subscriptions an event goes to, from an in-process cache of every live subscription.

The cache reloads when ``subscription_versions.version`` moves (every subscription change bumps
it in the same transaction); the worker asks for the version once per batch, so matching costs
no query per event. Results are memoised per (tenant, type, source, major, delegated scope). The
predicate itself is ``EventSelector.matches`` (hub/subscription/selectors.py), which the pull
inbox applies at read time.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from hub.providers.registry import provider_for
from hub.subscription.models import Subscription
from hub.subscription.selectors import EventSelector, selector_fields
from hub.subscription.versions import READ_VERSION_SQL
from hub.tableshape import column_list

_MEMO_LIMIT = 100_000

_LOAD_COLUMNS = column_list(Subscription, "id", "tenant_id", "delegated_scope", "sink_kind", "event_types",
                            "event_majors", "origin", "schema_major")
_LOAD_SQL = f"SELECT {_LOAD_COLUMNS} FROM {Subscription.__tablename__} WHERE deleted_at IS NULL"


@dataclass(frozen=True, slots=True)
class CachedSubscription(EventSelector):
    """A live subscription as the ingest worker matches it: its selectors plus identity and kind."""

    id: str
    tenant_id: str
    pull: bool


@dataclass(frozen=True, slots=True)
class Match:
    """Push subscriptions that get a delivery job, and pull subscriptions the event is eligible for."""

    push: tuple[str, ...]
    pull: tuple[str, ...]


NO_MATCH = Match((), ())


def subscription_from_row(row: tuple[Any, ...]) -> CachedSubscription:
    sub_id, tenant_id, scope, sink_kind, event_types, event_majors, origin, schema_major = row
    return CachedSubscription(
        # Every live matching push subscription gets a job, enabled or not: a disabled one's job ends
        # `disabled` when it comes due, so no event is dropped without a recorded outcome. Pull
        # eligibility is recorded for every live pull subscription (the dashboard counts the ones
        # that exist now).
        id=str(sub_id), tenant_id=tenant_id, pull=not provider_for(sink_kind).is_push,
        **selector_fields(delegated_scope=scope, event_types=event_types, event_majors=event_majors,
                          origin=origin, schema_major=schema_major),
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
        row = cursor.execute(READ_VERSION_SQL).fetchone()
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
                push=tuple(sub.id for sub in hits if not sub.pull),
                pull=tuple(sorted(sub.id for sub in hits if sub.pull)),
            )
        if len(self._memo) >= _MEMO_LIMIT:
            self._memo.clear()
        self._memo[key] = found
        return found

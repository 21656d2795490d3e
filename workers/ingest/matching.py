"""Which subscriptions an event goes to, from an in-process cache of every live subscription.

The cache reloads when ``subscription_versions.version`` moves (every subscription change bumps
it in the same transaction); the worker asks for the version once per batch, so matching costs
no query per event. Results are memoised per (tenant, type, source, major, delegated scope). The
predicate itself is ``EventSelector.matches`` (hub/subscription/selectors.py), which the pull
inbox applies at read time. A subscription with a payload filter (N53) is compiled into a
predicate at load; the memo keeps it as a candidate, and ``select`` runs the predicates of an
event's candidates on its parsed attributes and data (parsed once per event, only when one has a filter).
An ordered push subscription (N77) is matched like any other but listed apart (``Match.ordered``), with
its policy: the store reads the event's key and enqueues its job through hub.dataplane.ordering.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass
from typing import Any

from hub.cloudevent.decode import Event
from hub.providers.registry import provider_for
from hub.subscription.filter_check import check_filter
from hub.subscription.filters import Predicate, compile_filter, event_document
from hub.subscription.models import Subscription
from hub.subscription.ordering_policy import OrderingPolicy, ordering_policy
from hub.subscription.selectors import EventSelector, selector_fields
from hub.subscription.versions import READ_VERSION_SQL
from hub.tableshape import column_list

log = logging.getLogger("hub.ingest.matching")

_MEMO_LIMIT = 100_000

_LOAD_COLUMNS = column_list(Subscription, "id", "tenant_id", "delegated_scope", "sink_kind", "event_types",
                            "event_majors", "origin", "schema_major", "payload_filter", "ordering")
_LOAD_SQL = f"SELECT {_LOAD_COLUMNS} FROM {Subscription.__tablename__} WHERE deleted_at IS NULL"


@dataclass(frozen=True, slots=True)
class CachedSubscription(EventSelector):
    """A live subscription as the ingest worker matches it: its selectors plus identity and kind."""

    id: str
    tenant_id: str
    pull: bool
    payload: Predicate | None = None
    ordering: OrderingPolicy | None = None  # N77: a push subscription delivered in order per key


@dataclass(frozen=True, slots=True)
class Match:
    """Push subscriptions that get a delivery job, and pull subscriptions the event is eligible for;
    ``ordered``: push subscriptions whose job goes through the ordered enqueue (N77); ``filtered``:
    candidates whose payload filter still has to be asked (``SubscriptionCache.select``)."""

    push: tuple[str, ...]
    pull: tuple[str, ...]
    filtered: tuple[CachedSubscription, ...] = ()
    ordered: tuple[CachedSubscription, ...] = ()


NO_MATCH = Match((), ())


def _never(_: dict[str, Any], __: Any) -> bool:
    return False


def compiled_filter(sub_id: Any, document: Any) -> Predicate | None:
    """The stored filter's predicate; one that no longer passes the checks matches nothing (logged)."""
    if document is None:
        return None
    try:
        return compile_filter(check_filter(document))  # type: ignore[arg-type]
    except Exception as exc:  # noqa: BLE001 (a bad row must not stop the fan-out of every other one)
        log.error("a stored payload filter is invalid; it matches nothing",
                  extra={"fields": {"subscription_id": str(sub_id), "error": str(exc)}})
        return _never


def subscription_from_row(row: tuple[Any, ...]) -> CachedSubscription:
    sub_id, tenant_id, scope, sink_kind, event_types, event_majors, origin, schema_major, payload_filter, order = row
    pull = not provider_for(sink_kind).is_push
    return CachedSubscription(
        # Every live matching push subscription gets a job, enabled or not: a disabled one's job ends
        # `disabled` when it comes due, so no event is dropped without a recorded outcome. Pull
        # eligibility is recorded for every live pull subscription (the dashboard counts the ones
        # that exist now).
        id=str(sub_id), tenant_id=tenant_id, pull=pull,
        payload=compiled_filter(sub_id, payload_filter), ordering=None if pull else ordering_policy(order),
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
            plain = [sub for sub in hits if sub.payload is None]
            found = Match(
                push=tuple(sub.id for sub in plain if not sub.pull and sub.ordering is None),
                pull=tuple(sorted(sub.id for sub in plain if sub.pull)),
                filtered=tuple(sub for sub in hits if sub.payload is not None),
                ordered=tuple(sub for sub in plain if sub.ordering is not None),
            )
        if len(self._memo) >= _MEMO_LIMIT:
            self._memo.clear()
        self._memo[key] = found
        return found

    def select(self, event: Event) -> Match:
        """The subscriptions ``event`` goes to: its memoised match, then the payload filters of its candidates."""
        found = self.match(event.tenant_id, event.event_type, event.source, event.schema_major,
                           event.delegated_scope)
        if not found.filtered:
            return found
        attributes, data = event_document(event.attributes_json, event.data_json)
        passed = [sub for sub in found.filtered if sub.payload(attributes, data)]  # type: ignore[misc]
        if not passed:
            return Match(found.push, found.pull, ordered=found.ordered)
        return Match(found.push + tuple(sub.id for sub in passed if not sub.pull and sub.ordering is None),
                     tuple(sorted(found.pull + tuple(sub.id for sub in passed if sub.pull))),
                     ordered=found.ordered + tuple(sub for sub in passed if sub.ordering is not None))

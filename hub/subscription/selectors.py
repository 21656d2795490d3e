"""Which events a subscription receives: the one selector predicate that ingest and the pull inbox share.

A subscription's selectors are its event types (none: every type), its origin (none: every
producer), its delegated scope (none: every party of the tenant; set: only events carrying that
``delegatedscope``) and the schema major it receives each type at (``event_majors``, else the
pinned ``schema_major``, else 1). Ingest applies them when it fans an event out; the pull inbox
applies them at read time to the tenant's event log.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True, slots=True)
class EventSelector:
    delegated_scope: str | None
    event_types: frozenset[str] | None
    event_majors: dict[str, int]
    origin: str | None
    default_major: int

    def major_for(self, event_type: str) -> int:
        """The schema major this subscription receives ``event_type`` at (event_majors, pin, or 1)."""
        return self.event_majors.get(event_type, self.default_major)

    def matches(self, event_type: str, source: str, major: int, delegated_scope: str | None) -> bool:
        """Whether an event of this type, producer, schema major and delegated scope is selected."""
        if self.event_types is not None and event_type not in self.event_types:
            return False
        if self.origin is not None and self.origin != source:
            return False
        if self.delegated_scope is not None and self.delegated_scope != delegated_scope:
            return False
        return self.major_for(event_type) == major


def selector_fields(*, delegated_scope: str | None, event_types: Any, event_majors: Any, origin: str | None,
                    schema_major: int | None) -> dict[str, Any]:
    """The selector's values from a subscription's stored columns; an empty value means unset."""
    return {
        "delegated_scope": delegated_scope or None,
        "event_types": frozenset(event_types) if event_types else None,
        "event_majors": {str(key): int(value) for key, value in (event_majors or {}).items()},
        "origin": origin or None,
        "default_major": int(schema_major or 1),
    }


def selector_of(subscription: Any) -> EventSelector:
    """The selector of a stored subscription (anything with the subscription's column attributes)."""
    return EventSelector(**selector_fields(
        delegated_scope=subscription.delegated_scope, event_types=subscription.event_types,
        event_majors=subscription.event_majors, origin=subscription.origin,
        schema_major=subscription.schema_major))

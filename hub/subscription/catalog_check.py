"""Event types against the catalog snapshot (R-createSubscription-14/15, R-updateSubscriptionSchemaMajor-06).

A value is known when ``catalog_events`` lists its event key at the major the subscription receives
it at (``EventSelector.major_for``, the rule ingest and the pull inbox apply), from the ``origin``
producer when set. The hub's own ``hub.*`` lifecycle events are known at major 1 when no origin or
the hub's own origin is named. While the catalog holds no producer event, or cannot be read in time,
values are accepted unchecked.
"""

from __future__ import annotations

import logging
from collections.abc import Iterable

from sqlalchemy import bindparam, text
from sqlalchemy.dialects.postgresql import ARRAY
from sqlalchemy.exc import SQLAlchemyError
from sqlalchemy.types import String

from hub.db import get_engine
from hub.lifecycle.event_types import HUB_SOURCE, lifecycle_event_keys
from hub.subscription.errors import UnknownEventType
from hub.subscription.selectors import EventSelector, selector_fields

log = logging.getLogger("hub.subscription.catalog")
# A slow catalog read must not hold a create hostage: past this, values go unchecked.
CATALOG_READ_TIMEOUT_MS = 2000

_ANY_PRODUCER_EVENT = text("SELECT EXISTS (SELECT 1 FROM catalog_events WHERE source <> :hub)")
_ENTRIES = text(
    "SELECT resource_type || '.' || event_type AS event_key, schema_major, source FROM catalog_events "
    "WHERE source <> :hub AND resource_type || '.' || event_type = ANY(:keys)"
).bindparams(bindparam("keys", type_=ARRAY(String)))


def _catalog_entries(keys: list[str]) -> set[tuple[str, int, str]] | None:
    """(event key, major, source) rows for ``keys``; None when the check must be skipped."""
    try:
        with get_engine().connect() as connection, connection.begin():
            connection.execute(text(f"SET LOCAL statement_timeout = {CATALOG_READ_TIMEOUT_MS}"))
            if not connection.execute(_ANY_PRODUCER_EVENT, {"hub": HUB_SOURCE}).scalar():
                return None
            rows = connection.execute(_ENTRIES, {"hub": HUB_SOURCE, "keys": keys}).all()
    except SQLAlchemyError as exc:
        log.warning("catalog unreadable; event types accepted unchecked (%s)", type(exc).__name__)
        return None
    return {(row.event_key, row.schema_major, row.source) for row in rows}


def _known(key: str, major: int, origin: str | None, entries: set[tuple[str, int, str]]) -> bool:
    if major == 1 and key in lifecycle_event_keys() and origin in (None, HUB_SOURCE):
        return True  # the hub's own events come only from the hub as producer
    return any(entry_key == key and entry_major == major and (origin is None or source == origin)
               for entry_key, entry_major, source in entries)


def check_catalog(
    *, event_types: list[str] | None, schema_major: int | None, event_majors: dict[str, int] | None,
    origin: str | None, only: Iterable[str] | None = None,
) -> None:
    """Raise 422 unknown_event_type with one ``errors`` entry per refused type (``event_types/N``).

    ``only`` limits the check to some of the types (a re-pin checks the types the pin moves).
    """
    if not event_types:
        return
    checked = set(event_types if only is None else only)
    entries = _catalog_entries(sorted(checked))
    if entries is None:
        return
    selector = EventSelector(**selector_fields(delegated_scope=None, event_types=event_types,
                                              event_majors=event_majors, origin=origin, schema_major=schema_major))
    refused = []
    for index, key in enumerate(event_types):
        major = selector.major_for(key)
        if key in checked and not _known(key, major, origin, entries):
            where = f' from origin "{origin}"' if origin else ""
            refused.append({"location": f"event_types/{index}",
                            "message": f'"{key}" has no catalog entry at schema major {major}{where}'})
    if refused:
        raise UnknownEventType(errors=refused)

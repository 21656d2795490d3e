"""The catalog as served (R-getCatalog-02..23) and the look-ups other features make against it."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

from sqlalchemy import exists
from sqlmodel import Session, select

from hub.catalog.models import CatalogEvent, CatalogProducer
from hub.catalog.store import RETIRED_URL
from hub.config import get_settings
from hub.lifecycle.event_types import HUB_SOURCE, lifecycle_catalog_events


def event_key(resource_type: str, event_type: str, source: str) -> str:
    """R-getCatalog-11: ``resourceType.eventType`` for a producer, the event type as is for the hub."""
    return event_type if source == HUB_SOURCE else f"{resource_type}.{event_type}"


def _event_entry(row: CatalogEvent) -> dict[str, Any]:
    # Key order is fixed here: the body must be byte-identical for every caller (R-getCatalog-03).
    entry: dict[str, Any] = {
        "eventKey": event_key(row.resource_type, row.event_type, row.source),
        "source": row.source,
        "resourceType": row.resource_type,
        "eventType": row.event_type,
        "topic": row.topic,
        "schemaVersion": row.schema_version,
        "schemaMajor": row.schema_major,
    }
    if row.data_schema:
        entry["dataSchema"] = row.data_schema
    entry["description"] = row.description
    return entry


def _hub_entry(event: dict[str, Any]) -> dict[str, Any]:
    keys = ("eventKey", "source", "resourceType", "eventType", "topic", "schemaVersion", "schemaMajor",
            "dataSchema", "description")
    return {key: event[key] for key in keys if key in event and (key != "dataSchema" or event[key])}


def _order(entry: dict[str, Any]) -> tuple[Any, ...]:
    """R-getCatalog-07: topic, schema major, event type, resource type (source breaks any tie)."""
    return entry["topic"], entry["schemaMajor"], entry["eventType"], entry["resourceType"], entry["source"]


def catalog_entries(session: Session) -> list[dict[str, Any]]:
    """Every catalog event as served: the stored producer entries plus the hub's lifecycle events."""
    rows = session.exec(select(CatalogEvent)).all()
    entries = [_event_entry(row) for row in rows]
    entries.extend(_hub_entry(event) for event in lifecycle_catalog_events(get_settings()))
    return sorted(entries, key=_order)


def _rfc3339(moment: datetime | None) -> str | None:
    if moment is None:
        return None
    return moment.astimezone(UTC).isoformat().replace("+00:00", "Z")


def catalog_producers(session: Session) -> list[dict[str, Any]]:
    """The live producers' refresh freshness, ordered by target (R-getCatalog-09, -17)."""
    rows = session.exec(select(CatalogProducer).where(CatalogProducer.manifest_url != RETIRED_URL)).all()
    producers = [
        {
            "target": row.target,
            "source": row.source,
            "fetched_at": _rfc3339(row.fetched_at),
            "last_refresh_failed_at": _rfc3339(row.last_refresh_failed_at),
            "last_refresh_error_class": row.last_refresh_error_class if row.last_refresh_failed_at else None,
        }
        for row in rows
    ]
    return sorted(producers, key=lambda producer: producer["target"])


def catalog_document(session: Session) -> dict[str, Any]:
    """The whole ``CatalogResponse`` body."""
    return {"events": catalog_entries(session), "producers": catalog_producers(session)}


def catalog_has_producer_events(session: Session) -> bool:
    """Whether any producer event is listed yet (R-createSubscription-15 accepts unchecked until then)."""
    return bool(session.exec(select(exists().select_from(CatalogEvent))).one())


def known_event_keys(session: Session) -> dict[tuple[str, int], frozenset[str]]:
    """``(eventKey, schemaMajor)`` → the sources that publish it, the hub's own events included."""
    found: dict[tuple[str, int], set[str]] = {}
    for entry in catalog_entries(session):
        found.setdefault((entry["eventKey"], entry["schemaMajor"]), set()).add(entry["source"])
    return {key: frozenset(sources) for key, sources in found.items()}

"""Writes to the catalog tables made by the refresher (which holds the refresher lock).

Retirement (R-getCatalog-13): a producer that is no longer configured loses its ``producers[]``
row while its events stay served as stale entries. The row is kept with an empty
``manifest_url`` (the foreign key from ``catalog_events`` needs it) and the read side hides it;
a retired producer without events is deleted outright, and a live producer that declares a
retired producer's source takes its place (the retired entries go).
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from sqlalchemy import delete, func, update
from sqlmodel import Session, col, select

from hub.catalog.manifest import Manifest, ManifestInvalid
from hub.catalog.models import CatalogEvent, CatalogProducer
from hub.catalog.targets import Target

RETIRED_URL = ""


@dataclass(frozen=True)
class BreakerState:
    """A producer's circuit breaker as the round found it."""

    consecutive_failures: int
    open_until: datetime | None
    last_attempt: datetime | None


def _last_attempt(row: CatalogProducer) -> datetime | None:
    stamps = [stamp for stamp in (row.fetched_at, row.last_refresh_failed_at) if stamp is not None]
    return max(stamps) if stamps else None


def reconcile(*, session: Session, targets: list[Target]) -> dict[str, BreakerState]:
    """Make the producer rows match the configuration; the breaker state of each configured target."""
    rows = {row.target: row for row in session.exec(select(CatalogProducer))}
    configured = {target.target: target for target in targets}
    for name, row in rows.items():
        if name in configured or row.manifest_url == RETIRED_URL:
            continue
        has_events = session.exec(
            select(func.count()).select_from(CatalogEvent).where(CatalogEvent.producer_target == name)
        ).one()
        if has_events:
            row.manifest_url = RETIRED_URL
            session.add(row)
        else:
            session.delete(row)
    states: dict[str, BreakerState] = {}
    for name, target in configured.items():
        row = rows.get(name)
        if row is None:
            row = CatalogProducer(target=name, manifest_url=target.manifest_url)
        row.manifest_url = target.manifest_url
        session.add(row)
        states[name] = BreakerState(row.consecutive_failures, row.breaker_open_until, _last_attempt(row))
    session.flush()
    return states


def _check_claims(session: Session, target: str, manifest: Manifest) -> None:
    """A source or topic already declared by another live producer breaks R-getCatalog-13/14."""
    others = session.exec(
        select(CatalogProducer).where(CatalogProducer.target != target, CatalogProducer.manifest_url != RETIRED_URL)
    ).all()
    for other in others:
        if other.source == manifest.source:
            raise ManifestInvalid("another producer already declares this source")
        if other.topic == manifest.topic:
            raise ManifestInvalid("another producer already declares this topic")


def replace_entries(*, session: Session, target: str, manifest: Manifest, now: datetime) -> None:
    """Replace ``target``'s entries with the manifest's and mark the refresh successful (one transaction)."""
    _check_claims(session, target, manifest)
    # Bulk statements go through execute(): exec() is for SELECTs.
    session.execute(delete(CatalogProducer).where(
        col(CatalogProducer.manifest_url) == RETIRED_URL, col(CatalogProducer.source) == manifest.source))
    session.execute(delete(CatalogEvent).where(col(CatalogEvent.producer_target) == target))
    session.add_all(
        CatalogEvent(
            producer_target=target, resource_type=event.resource_type, event_type=event.event_type,
            schema_major=event.schema_major, source=manifest.source, topic=manifest.topic,
            schema_version=event.schema_version, data_schema=event.data_schema, description=event.description,
        )
        for event in manifest.events
    )
    session.execute(update(CatalogProducer).where(col(CatalogProducer.target) == target).values(
        source=manifest.source, topic=manifest.topic, fetched_at=now, consecutive_failures=0,
        breaker_open_until=None,
    ))
    session.flush()


def record_failure(*, session: Session, target: str, error_class: str, now: datetime,
                   consecutive_failures: int | None, breaker_open_until: datetime | None, counts: bool) -> None:
    """Record a failed or skipped attempt; ``fetched_at`` and the entries stay as they were (R-getCatalog-20)."""
    values: dict[str, object] = {"last_refresh_failed_at": now, "last_refresh_error_class": error_class}
    if counts:
        values["consecutive_failures"] = consecutive_failures
        values["breaker_open_until"] = breaker_open_until
    session.execute(update(CatalogProducer).where(col(CatalogProducer.target) == target).values(**values))

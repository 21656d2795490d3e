"""Readiness check of the catalog feed (docs/contract-notes.md N8): ``degraded`` while a refresh is failing."""

from __future__ import annotations

from sqlmodel import Session, col, select

from hub.catalog.models import CatalogProducer
from hub.catalog.targets import configured_targets
from hub.config import get_settings
from hub.db import get_engine
from hub.ops.readiness import ReadinessOutcome

CHECK_NAME = "catalog"


def failing(row: CatalogProducer) -> bool:
    """The producer's last attempt failed more recently than its last success (or none succeeded)."""
    if row.last_refresh_failed_at is None:
        return False
    return row.fetched_at is None or row.last_refresh_failed_at > row.fetched_at


def catalog_readiness() -> ReadinessOutcome:
    """Healthy when every producer this replica is configured with refreshed last time it was tried."""
    targets = [target.target for target in configured_targets(get_settings())]
    if not targets:
        return ReadinessOutcome(CHECK_NAME, "healthy", "no producer manifests configured")
    try:
        with Session(get_engine()) as session:
            rows = session.exec(select(CatalogProducer).where(col(CatalogProducer.target).in_(targets))).all()
    except Exception as exc:  # noqa: BLE001 (the database check reports the outage itself)
        return ReadinessOutcome(CHECK_NAME, "degraded", f"catalog freshness unreadable ({type(exc).__name__})")
    broken = sorted({row.last_refresh_error_class or "unknown" for row in rows if failing(row)})
    count = sum(1 for row in rows if failing(row))
    if count:
        # Counts and classes only: /readyz is unauthenticated, so no producer host names.
        return ReadinessOutcome(CHECK_NAME, "degraded",
                            f"{count} of {len(targets)} producer(s) failing refresh ({', '.join(broken)})")
    return ReadinessOutcome(CHECK_NAME, "healthy", f"{len(targets)} producer(s) refreshed")

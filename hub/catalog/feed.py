"""The catalog refresher: fetch every configured manifest, validate it, replace that producer's entries.

``refresh_once`` is one round. Only one round runs at a time across every API process: it holds a
PostgreSQL session advisory lock on a dedicated connection for the whole round (closing the
connection frees it, so a crashed pod never keeps it). Each producer is settled in its own
transaction; a failure keeps its last-known-good entries (R-getCatalog-02) and records the class.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Iterator
from concurrent.futures import ThreadPoolExecutor
from contextlib import AbstractContextManager, contextmanager
from dataclasses import dataclass, field
from datetime import datetime, timedelta

import psycopg
from sqlalchemy.exc import SQLAlchemyError
from sqlmodel import Session

from hub.catalog.fetch import FetchFailed, fetch_manifest
from hub.catalog.manifest import ManifestInvalid, ManifestUnparseable, parse_manifest
from hub.catalog.store import BreakerState, record_failure, reconcile, replace_entries
from hub.catalog.targets import Target, configured_targets
from hub.config import Settings, get_settings
from hub.db import libpq_url, session_scope
from hub.sqltypes import utcnow

log = logging.getLogger("hub.catalog")

# Arbitrary, fixed 64-bit key: the refresher is the only user of it.
REFRESH_LOCK_KEY = 0x5348_4341_5441_4C47
# A round skips producers attempted this recently (fraction of the interval), so several pods
# taking turns on the lock still refresh each producer about once per interval.
_DUE_FRACTION = 0.8

SessionFactory = Callable[[], AbstractContextManager[Session]]


@dataclass
class RefreshReport:
    """What one round did: whether it held the lock, and each target's outcome.

    An outcome is ``ok``, an error class (``fetch_failed``, ``invalid_manifest``,
    ``persist_failed``, ``breaker_open``) or ``not_due``.
    """

    ran: bool
    outcomes: dict[str, str] = field(default_factory=dict)


@contextmanager
def refresh_lock() -> Iterator[bool]:
    """Try the cluster-wide refresher lock; yields whether this process holds it."""
    try:
        connection = psycopg.connect(libpq_url(), autocommit=True, connect_timeout=5)
    except psycopg.Error as exc:
        log.warning("catalog refresh skipped: database unreachable", extra={"fields": {"error": type(exc).__name__}})
        yield False
        return
    with connection:
        row = connection.execute("SELECT pg_try_advisory_lock(%s)", (REFRESH_LOCK_KEY,)).fetchone()
        acquired = bool(row and row[0])
        try:
            yield acquired
        finally:
            if acquired and not connection.closed:
                connection.execute("SELECT pg_advisory_unlock(%s)", (REFRESH_LOCK_KEY,))


def refresh_once(
    *,
    session_factory: SessionFactory = session_scope,
    now: datetime | None = None,
    settings: Settings | None = None,
    only_due: bool = False,
) -> RefreshReport:
    """Refresh every configured producer once, unless another process holds the refresher lock."""
    settings = settings or get_settings()
    with refresh_lock() as held:
        if not held:
            return RefreshReport(ran=False)
        return _refresh_locked(session_factory, now or utcnow(), settings, only_due)


def _refresh_locked(session_factory: SessionFactory, now: datetime, settings: Settings,
                    only_due: bool) -> RefreshReport:
    targets = configured_targets(settings)
    with session_factory() as session:
        states = reconcile(session=session, targets=targets)
    report = RefreshReport(ran=True)
    plans = {t.target: _plan(states[t.target], now, settings, only_due) for t in targets}
    to_fetch = [t for t in targets if plans[t.target] == "fetch"]
    bodies = _fetch_all(to_fetch, settings)
    for target in targets:
        plan = plans[target.target]
        if plan == "fetch":
            outcome = _settle(session_factory, target, bodies[target.target], states[target.target], now, settings)
        elif plan == "breaker_open":
            outcome = _record(session_factory, target.target, "breaker_open", now, state=None, settings=settings)
        else:
            outcome = plan
        report.outcomes[target.target] = outcome
    return report


def _plan(state: BreakerState, now: datetime, settings: Settings, only_due: bool) -> str:
    """``fetch``, ``breaker_open`` (open and cooling down: no fetch) or ``not_due``."""
    if only_due and state.last_attempt is not None:
        if (now - state.last_attempt).total_seconds() < settings.catalog_refresh_seconds * _DUE_FRACTION:
            return "not_due"
    if state.open_until is not None and now < state.open_until:
        return "breaker_open"
    return "fetch"  # closed, or half-open after the cool-down: this is the one trial fetch


def _fetch_all(targets: list[Target], settings: Settings) -> dict[str, bytes | FetchFailed]:
    def one(target: Target) -> bytes | FetchFailed:
        try:
            return fetch_manifest(target.manifest_url, timeout_seconds=settings.catalog_fetch_timeout_seconds,
                                  max_bytes=settings.catalog_max_manifest_bytes)
        except FetchFailed as exc:
            return exc

    if not targets:
        return {}
    with ThreadPoolExecutor(max_workers=min(8, len(targets)), thread_name_prefix="catalog-fetch") as pool:
        return dict(zip([t.target for t in targets], pool.map(one, targets), strict=True))


def _settle(session_factory: SessionFactory, target: Target, body: bytes | FetchFailed, state: BreakerState,
            now: datetime, settings: Settings) -> str:
    """Validate and store one fetched manifest; record the failure class when that is not possible."""
    if isinstance(body, FetchFailed):
        return _record(session_factory, target.target, "fetch_failed", now, state=state, settings=settings,
                       reason=str(body))
    try:
        manifest = parse_manifest(body)
    except ManifestUnparseable as exc:
        return _record(session_factory, target.target, "fetch_failed", now, state=state, settings=settings,
                       reason=str(exc))
    except ManifestInvalid as exc:
        return _record(session_factory, target.target, "invalid_manifest", now, state=state, settings=settings,
                       reason=str(exc))
    try:
        with session_factory() as session:
            replace_entries(session=session, target=target.target, manifest=manifest, now=now)
    except ManifestInvalid as exc:
        return _record(session_factory, target.target, "invalid_manifest", now, state=state, settings=settings,
                       reason=str(exc))
    except (SQLAlchemyError, psycopg.Error) as exc:
        # Not the producer's fault, so it does not count towards the producer's breaker.
        return _record(session_factory, target.target, "persist_failed", now, state=None, settings=settings,
                       reason=type(exc).__name__)
    log.info("catalog producer refreshed", extra={"fields": {"target": target.target,
                                                             "events": len(manifest.events)}})
    return "ok"


def _record(session_factory: SessionFactory, target: str, error_class: str, now: datetime, *,
            state: BreakerState | None, settings: Settings, reason: str = "") -> str:
    """Store a failed or skipped attempt; ``state`` given means it counts towards the breaker."""
    failures = open_until = None
    if state is not None:
        failures = state.consecutive_failures + 1
        # A failure while half-open re-opens at once; otherwise open after N in a row.
        if state.open_until is not None or failures >= settings.catalog_breaker_threshold:
            open_until = now + timedelta(seconds=settings.catalog_breaker_cooldown_seconds)
    try:
        with session_factory() as session:
            record_failure(session=session, target=target, error_class=error_class, now=now,
                           consecutive_failures=failures, breaker_open_until=open_until,
                           counts=state is not None)
    except (SQLAlchemyError, psycopg.Error) as exc:
        log.error("catalog refresh failure not recorded", extra={"fields": {"target": target,
                                                                             "error": type(exc).__name__}})
    log.warning("catalog producer refresh failed", extra={"fields": {
        "target": target, "error_class": error_class, "reason": reason}})
    return error_class


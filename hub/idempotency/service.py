"""At-most-once mutations under ``X-Idempotency`` (docs/contract-notes.md N2-N3, R-X-IDEM-*).

A mutation runs in one database transaction that also writes the key's answer, so a committed
mutation always has a recorded answer. The transaction first takes a transaction-scoped advisory
lock on (tenant, key): a second request that cannot take it is an in-flight duplicate (409).
"""

from __future__ import annotations

import hashlib
import logging
from collections.abc import Callable
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from typing import Any, TypeVar
from urllib.parse import parse_qsl, urlencode

import orjson
import psycopg
from fastapi import Response
from sqlalchemy import text
from sqlalchemy.exc import InterfaceError, OperationalError, SQLAlchemyError
from sqlmodel import Session

from hub.config import get_settings
from hub.db import get_engine
from hub.errors import Conflict, HubError
from hub.problems import problem_response
from hub.secrets import seal, unseal

log = logging.getLogger("hub.idempotency")
T = TypeVar("T")

REPLAYED_HEADER = "X-Idempotency-Replayed"
# N3: the headers that matter in a replay (and N77: a resend's out-of-order mark, extensions only).
KEPT_HEADERS = ("content-type", "cache-control", "location", "x-delivery-order")


class IdempotencyConflict(Conflict):
    code, default_detail = "idempotency_conflict", "the X-Idempotency key refuses this request"


class OutcomeUnrecorded(HubError):
    """An earlier request under the key may have committed with no recorded answer (409 or 500)."""

    status, code = 409, "idempotency_outcome_unrecorded"
    default_detail = "an earlier request under this key may have committed; read the resource first"


@dataclass(frozen=True)
class IdempotentRequest:
    """One mutation's key, scoped to its tenant, and the fingerprint of the request it guards."""

    tenant_id: str
    key: str
    fingerprint: str
    #: The statuses whose replay carries ``X-Idempotency-Replayed`` (where the operation declares it).
    replayed_on: frozenset[int] = frozenset()

    @property
    def lock_id(self) -> int:
        """A signed 64-bit advisory lock id for (tenant, key)."""
        digest = hashlib.sha256(f"idempotency\x00{self.tenant_id}\x00{self.key}".encode()).digest()
        return int.from_bytes(digest[:8], "big", signed=True)


def fingerprint(*, method: str, path: str, query: str, body: bytes) -> str:
    """SHA-256 over the method, the path with its id, the sorted query string and the raw body."""
    sorted_query = urlencode(sorted(parse_qsl(query, keep_blank_values=True)))
    digest = hashlib.sha256()
    for part in (method.upper().encode(), path.encode(), sorted_query.encode(), body):
        digest.update(len(part).to_bytes(8, "big"))  # length-prefixed: no two requests collide
        digest.update(part)
    return digest.hexdigest()


_LOOKUP = text(
    "SELECT fingerprint, state, status_code, headers, body FROM idempotency_records "
    "WHERE tenant_id = :tenant AND key = :key AND expires_at > now()"
)
_STORE = text(
    """
    INSERT INTO idempotency_records
      (tenant_id, key, fingerprint, state, status_code, headers, body, created_at, expires_at)
    VALUES (:tenant, :key, :fingerprint, 'completed', :status, CAST(:headers AS jsonb), :body, now(),
            :expires_at)
    ON CONFLICT (tenant_id, key) DO UPDATE SET
      fingerprint = EXCLUDED.fingerprint, state = EXCLUDED.state, status_code = EXCLUDED.status_code,
      headers = EXCLUDED.headers, body = EXCLUDED.body, created_at = EXCLUDED.created_at,
      expires_at = EXCLUDED.expires_at
    """
)
# After a COMMIT whose outcome is unknown: the key answers 409 idempotency_outcome_unrecorded from
# now on, unless the mutation did land with its answer (that record is kept and replayed).
_MARK_UNRECORDED = text(
    """
    INSERT INTO idempotency_records (tenant_id, key, fingerprint, state, created_at, expires_at)
    VALUES (:tenant, :key, :fingerprint, 'started', now(), :expires_at)
    ON CONFLICT (tenant_id, key) DO UPDATE SET
      fingerprint = EXCLUDED.fingerprint, state = EXCLUDED.state, status_code = NULL, headers = NULL,
      body = NULL, created_at = EXCLUDED.created_at, expires_at = EXCLUDED.expires_at
    WHERE idempotency_records.expires_at <= now()
    """
)
# Expired records are ignored on lookup and purged a batch at a time whenever an answer is stored.
_PURGE = text(
    "DELETE FROM idempotency_records WHERE ctid = ANY(ARRAY("
    "SELECT ctid FROM idempotency_records WHERE expires_at <= now() LIMIT 100 FOR UPDATE SKIP LOCKED))"
)


def _answer(row: Any, request: IdempotentRequest) -> Response:
    """The replay of a stored record, or the refusal the record calls for."""
    if row.fingerprint != request.fingerprint:
        raise IdempotencyConflict("the X-Idempotency key was used with a different request")
    if row.state != "completed":
        raise OutcomeUnrecorded()
    headers = dict(row.headers or {})
    if row.status_code in request.replayed_on:
        headers[REPLAYED_HEADER] = "true"
    body = unseal(bytes(row.body).decode("ascii"), context=_seal_context(request)) if row.body else b""
    return Response(content=body, status_code=row.status_code, headers=headers)


def _seal_context(request: IdempotentRequest) -> str:
    # Stored answers can carry a freshly minted signing secret, so they are sealed like any secret.
    return f"idempotency:{request.tenant_id}:{request.key}"


def stored_answer(request: IdempotentRequest) -> Response | None:
    """The replay for a key that already has an answer; None when the key is new or expired."""
    with get_engine().connect() as connection:
        row = connection.execute(_LOOKUP, {"tenant": request.tenant_id, "key": request.key}).first()
    return None if row is None else _answer(row, request)


def _record(session: Session, request: IdempotentRequest, response: Response) -> None:
    kept = {name.title(): value for name, value in response.headers.items() if name in KEPT_HEADERS}
    expires_at = datetime.now(UTC) + timedelta(hours=get_settings().idempotency_ttl_hours)
    session.execute(_PURGE)
    session.execute(_STORE, {
        "tenant": request.tenant_id, "key": request.key, "fingerprint": request.fingerprint,
        "status": response.status_code, "headers": orjson.dumps(kept).decode(), "body": seal(bytes(response.body), context=_seal_context(request)).encode("ascii"),
        "expires_at": expires_at,
    })


def _refusal(exc: HubError) -> Response:
    return problem_response(exc.status, code=exc.code, detail=exc.detail, errors=exc.errors,
                            headers=exc.headers, extra=exc.extra)


def _run(session: Session, request: IdempotentRequest, work: Callable[[Session], Response]) -> Response:
    """Run ``work`` in a savepoint; a refusal it raises (below 500) becomes the key's answer."""
    savepoint = session.begin_nested()
    try:
        response = work(session)
    except HubError as exc:
        savepoint.rollback()
        if exc.status >= 500:
            raise
        return _refusal(exc)
    savepoint.commit()
    return response


def commit_with_answer(request: IdempotentRequest, work: Callable[[Session], Response]) -> Response:
    """Run ``work`` and record its answer in the same transaction (or replay/refuse the key)."""
    with Session(get_engine(), expire_on_commit=False) as session:
        locked = session.execute(text("SELECT pg_try_advisory_xact_lock(:id)"), {"id": request.lock_id}).scalar()
        if not locked:
            raise IdempotencyConflict("a request with this X-Idempotency key is still in flight")
        row = session.execute(_LOOKUP, {"tenant": request.tenant_id, "key": request.key}).first()
        if row is not None:
            return _answer(row, request)
        response = _run(session, request, work)
        _record(session, request, response)
        try:
            session.commit()
        except (OperationalError, InterfaceError) as exc:
            if isinstance(exc.orig, psycopg.errors.TransactionRollback):
                raise  # the server rolled back: nothing landed, the key stays free
            # The connection failed during COMMIT: the mutation and its answer may or may not
            # have landed together. A retry with the key replays the answer if they did.
            log.error("commit outcome unknown for an idempotent mutation", exc_info=exc)
            _mark_unrecorded(request)
            raise OutcomeUnrecorded("the mutation may have committed; read the resource first",
                                    status=500) from exc
    return response


def _mark_unrecorded(request: IdempotentRequest) -> None:
    """Remember that the key's mutation may have committed without its answer (R-X-IDEM-06)."""
    expires_at = datetime.now(UTC) + timedelta(hours=get_settings().idempotency_ttl_hours)
    try:
        with get_engine().begin() as connection:
            connection.execute(text("SET LOCAL statement_timeout = 5000"))
            # Waits until the failed transaction has ended, so its answer (if it landed) is seen.
            connection.execute(text("SELECT pg_advisory_xact_lock(:id)"), {"id": request.lock_id})
            connection.execute(_MARK_UNRECORDED, {"tenant": request.tenant_id, "key": request.key,
                                                  "fingerprint": request.fingerprint, "expires_at": expires_at})
    except SQLAlchemyError as exc:
        # Nothing is known then; a retry re-runs the mutation only if it did not land.
        log.warning("could not mark an X-Idempotency key as unrecorded (%s)", type(exc).__name__)


def execute(request: IdempotentRequest, work: Callable[[Session, T], Response],
            prepare: Callable[[], T] = lambda: None) -> Response:  # type: ignore[assignment,return-value]
    """The full flow: replay a stored answer, else ``prepare`` (unrecorded checks), then commit.

    ``prepare`` runs outside any write transaction (validation, DNS); what it raises is not
    stored, so the same key can retry. ``work`` runs inside the transaction.
    """
    replay = stored_answer(request)
    if replay is not None:
        return replay
    prepared = prepare()
    return commit_with_answer(request, lambda session: work(session, prepared))

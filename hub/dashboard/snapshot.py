"""One consistent, time-boxed read: a REPEATABLE READ transaction with a statement timeout."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from datetime import datetime

from psycopg import errors as pg_errors
from sqlalchemy import Connection, text
from sqlalchemy.exc import OperationalError
from sqlmodel import Session

from hub.config import get_settings
from hub.errors import ReadTimeout


@contextmanager
def snapshot_read(session: Session) -> Iterator[tuple[Connection, datetime]]:
    """A read-only REPEATABLE READ transaction on the caller's session, and its instant (``now()``).

    Every statement inside sees the same snapshot, so the figures agree with one another. Each
    statement gets the time budget ``HUB_READ_TIMEOUT_MS`` (PostgreSQL's ``statement_timeout``,
    set for this transaction only); running out of it is a 503 ``read_timeout``. A transaction the
    session already has (an existence gate's read) is ended first: the isolation level can only be
    chosen before a transaction's first statement. Rows it loaded stay loaded (the request session
    does not expire them on commit).
    """
    budget_ms = max(1, get_settings().read_timeout_ms)
    if session.in_transaction():
        session.commit()
    try:
        connection = session.connection(execution_options={"isolation_level": "REPEATABLE READ"})
        connection.execute(text("SET TRANSACTION READ ONLY"))
        connection.execute(text(f"SET LOCAL statement_timeout = {budget_ms}"))
        snapshot_at = connection.execute(text("SELECT now()")).scalar_one()
        yield connection, snapshot_at
    except OperationalError as exc:
        session.rollback()
        if isinstance(exc.orig, pg_errors.QueryCanceled):
            raise ReadTimeout() from exc
        raise
    except BaseException:
        session.rollback()
        raise
    session.commit()  # read only: this ends the snapshot and gives the connection its isolation level back

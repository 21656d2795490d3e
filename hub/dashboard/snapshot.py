"""One consistent, time-boxed read: a REPEATABLE READ transaction with a statement timeout."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from datetime import datetime

from psycopg import errors as pg_errors
from sqlalchemy import Connection, text
from sqlalchemy.exc import OperationalError

from hub.config import get_settings
from hub.db import get_engine
from hub.errors import ReadTimeout


@contextmanager
def snapshot_read() -> Iterator[tuple[Connection, datetime]]:
    """A read-only REPEATABLE READ transaction and its instant (``now()``, the snapshot's time).

    Every statement inside sees the same snapshot, so the figures agree with one another. Each
    statement gets the time budget ``HUB_READ_TIMEOUT_MS`` (PostgreSQL's ``statement_timeout``,
    set for this transaction only); running out of it is a 503 ``read_timeout``.
    """
    budget_ms = max(1, get_settings().read_timeout_ms)
    try:
        with get_engine().connect() as connection:
            connection = connection.execution_options(isolation_level="REPEATABLE READ")
            with connection.begin():
                connection.execute(text("SET TRANSACTION READ ONLY"))
                connection.execute(text(f"SET LOCAL statement_timeout = {budget_ms}"))
                snapshot_at = connection.execute(text("SELECT now()")).scalar_one()
                yield connection, snapshot_at
    except OperationalError as exc:
        if isinstance(exc.orig, pg_errors.QueryCanceled):
            raise ReadTimeout() from exc
        raise

"""What PostgreSQL did over a bench window, read as deltas of its cumulative statistics views.

Not a bench of its own (``make bench`` skips ``bench/_*.py``).

Nothing is reset (``pg_stat_statements_reset()`` needs privileges the bench's role lacks, and a reset
would disturb anyone else reading the views): a snapshot before and one after the window, subtracted.

* statements: ``calls`` summed over ``pg_stat_statements`` rows of the bench's database. Top-level
  statements only (the stack's ``pg_stat_statements.track`` is ``top``): statements that triggers and
  functions run are not counted, but ``BEGIN``/``COMMIT`` are;
* rows written, row versions, HOT updates: ``pg_stat_user_tables`` of the bench's database (inserted +
  updated + deleted; inserted + updated, the new tuples; of the updates, those that were HOT). Backends
  send these counts at most once a second, so each end of the window is fuzzy by up to a second;
* WAL bytes: ``pg_stat_wal.wal_bytes``, the whole server's (other databases' writes show here too).
"""

from __future__ import annotations

from dataclasses import dataclass

import psycopg

STATEMENTS = """
SELECT userid, queryid, toplevel, sum(calls)::bigint FROM pg_stat_statements
 WHERE dbid = (SELECT oid FROM pg_database WHERE datname = current_database())
 GROUP BY userid, queryid, toplevel
"""
TABLES = """
SELECT coalesce(sum(n_tup_ins), 0)::bigint, coalesce(sum(n_tup_upd), 0)::bigint,
       coalesce(sum(n_tup_del), 0)::bigint, coalesce(sum(n_tup_hot_upd), 0)::bigint
  FROM pg_stat_user_tables
"""
WAL = "SELECT wal_bytes::bigint FROM pg_stat_wal"

# The per-delivery figures, in the order the bench's table prints them (column name -> snapshot field).
FIGURES = {"statements": "statements", "rows written": "rows_written", "row versions": "row_versions",
           "HOT updates": "hot_updates", "WAL bytes": "wal_bytes"}


@dataclass
class PgSnapshot:
    """The cumulative counters at one moment; ``calls`` is None when the view is not installed."""

    calls: dict[tuple, int] | None
    inserted: int = 0
    updated: int = 0
    deleted: int = 0
    hot_updated: int = 0
    wal_bytes: int = 0


@dataclass
class PgWork:
    """What happened between two snapshots (statements None when not known)."""

    statements: int | None
    rows_written: int
    row_versions: int
    hot_updates: int
    wal_bytes: int


def pg_snapshot(dsn: str) -> PgSnapshot:
    """The counters now, read over a connection of its own to DSN's database (autocommit: every read
    is fresh, not the transaction's cached statistics snapshot)."""
    with psycopg.connect(dsn, autocommit=True) as conn:
        try:
            calls = {tuple(row[:3]): int(row[3] or 0) for row in conn.execute(STATEMENTS)}
        except psycopg.errors.UndefinedTable:  # the database was made before the stack loaded the extension
            calls = None
        row = conn.execute(TABLES).fetchone()
        wal = conn.execute(WAL).fetchone()
    assert row is not None and wal is not None
    return PgSnapshot(calls, *(int(value) for value in row), wal_bytes=int(wal[0]))


def calls_between(before: dict[tuple, int], after: dict[tuple, int]) -> int:
    """Calls made between two readings of ``pg_stat_statements``, statement by statement.

    A statement first seen after ``before`` counts in full; one gone from ``after`` (evicted when the
    view was full) is left out, rather than subtracting its count from everyone else's.
    """
    return sum(max(0, count - before.get(key, 0)) for key, count in after.items())


def pg_work(before: PgSnapshot, after: PgSnapshot) -> PgWork:
    """The work between two snapshots."""
    statements = None
    if before.calls is not None and after.calls is not None:
        statements = calls_between(before.calls, after.calls)
    inserted, updated = after.inserted - before.inserted, after.updated - before.updated
    return PgWork(statements, inserted + updated + after.deleted - before.deleted, inserted + updated,
                  after.hot_updated - before.hot_updated, after.wal_bytes - before.wal_bytes)


def per_delivery(work: PgWork | None, deliveries: int) -> dict[str, float | None]:
    """Each figure of WORK divided by DELIVERIES (None when either is missing)."""
    if work is None or deliveries <= 0:
        return dict.fromkeys(FIGURES)
    values = {name: getattr(work, attr) for name, attr in FIGURES.items()}
    return {name: None if value is None else value / deliveries for name, value in values.items()}

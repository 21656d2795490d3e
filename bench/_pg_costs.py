"""What PostgreSQL did over a bench window, read as deltas of its cumulative statistics views.

Not a bench of its own (``make bench`` skips ``bench/_*.py``).

Nothing is reset (``pg_stat_statements_reset()`` needs privileges the bench's role lacks, and a reset
would disturb anyone else reading the views): a snapshot before and one after the window, subtracted.

* statements: ``calls`` summed over ``pg_stat_statements`` rows of the bench's database. Top-level
  statements only (the stack's ``pg_stat_statements.track`` is ``top``): statements that triggers and
  functions run are not counted, but ``BEGIN``/``COMMIT`` are; statement ms: their ``total_exec_time``
  (the server's time executing them, lock and I/O waits included, not CPU);
* rows written, row versions, HOT updates: ``pg_stat_user_tables`` of the bench's database (inserted +
  updated + deleted; inserted + updated, the new tuples; of the updates, those that were HOT). Backends
  send these counts at most once a second, so each end of the window is fuzzy by up to a second;
* WAL bytes: ``pg_stat_wal.wal_bytes``, the whole server's (other databases' writes show here too).
"""

from __future__ import annotations

from dataclasses import dataclass, field

import psycopg

STATEMENTS = """
SELECT userid, queryid, toplevel, sum(calls)::bigint, sum(total_exec_time)::float8,
       min(left(regexp_replace(query, '\\s+', ' ', 'g'), 70))
  FROM pg_stat_statements
 WHERE dbid = (SELECT oid FROM pg_database WHERE datname = current_database())
 GROUP BY userid, queryid, toplevel
"""
TABLES = """
SELECT relname, n_tup_ins, n_tup_upd, n_tup_del, n_tup_hot_upd FROM pg_stat_user_tables
"""
WAL = "SELECT wal_bytes::bigint FROM pg_stat_wal"

# The per-delivery figures, in the order the bench's table prints them (column name -> snapshot field).
FIGURES = {"statements": "statements", "statement ms": "statement_ms", "rows written": "rows_written",
           "row versions": "row_versions", "HOT updates": "hot_updates", "WAL bytes": "wal_bytes"}
TOP = 4  # statements and tables named in a run's breakdown


@dataclass(frozen=True)
class Statement:
    """One statement's cumulative figures (its text cut short)."""

    calls: int
    ms: float  # execution time, waits included
    text: str = ""


@dataclass
class PgSnapshot:
    """The cumulative counters at one moment; ``statements`` is None when the view is not installed."""

    statements: dict[tuple, Statement] | None
    tables: dict[str, tuple[int, int, int, int]] = field(default_factory=dict)  # inserted, updated, deleted, HOT
    wal_bytes: int = 0


@dataclass
class PgWork:
    """What happened between two snapshots (statement figures None when not known)."""

    statements: int | None
    statement_ms: float | None
    rows_written: int
    row_versions: int
    hot_updates: int
    wal_bytes: int
    top_statements: list[tuple[str, int, float]] = field(default_factory=list)  # text, calls, ms
    top_tables: list[tuple[str, int]] = field(default_factory=list)  # table, rows written


def pg_snapshot(dsn: str) -> PgSnapshot:
    """The counters now, read over a connection of its own to DSN's database (autocommit: every read
    is fresh, not the transaction's cached statistics snapshot)."""
    with psycopg.connect(dsn, autocommit=True) as conn:
        try:
            statements = {tuple(row[:3]): Statement(int(row[3] or 0), float(row[4] or 0), row[5] or "")
                          for row in conn.execute(STATEMENTS)}
        except psycopg.errors.UndefinedTable:  # the database was made before the stack loaded the extension
            statements = None
        tables = {row[0]: tuple(int(value or 0) for value in row[1:]) for row in conn.execute(TABLES)}
        wal = conn.execute(WAL).fetchone()
    assert wal is not None
    return PgSnapshot(statements, tables, int(wal[0]))


def statement_deltas(before: dict[tuple, Statement], after: dict[tuple, Statement]) -> list[Statement]:
    """Each statement's calls and time between two readings of ``pg_stat_statements`` (those called).

    A statement first seen after ``before`` counts in full; one gone from ``after`` (evicted when the
    view was full) is left out, rather than subtracting its count from everyone else's.
    """
    empty = Statement(0, 0.0)
    deltas = [Statement(max(0, now.calls - before.get(key, empty).calls), max(0.0, now.ms - before.get(key, empty).ms),
                        now.text) for key, now in after.items()]
    return [delta for delta in deltas if delta.calls]


def pg_work(before: PgSnapshot, after: PgSnapshot) -> PgWork:
    """The work between two snapshots, with the statements that took longest and the most written tables."""
    statements, ms, top = None, None, []
    if before.statements is not None and after.statements is not None:
        deltas = statement_deltas(before.statements, after.statements)
        statements, ms = sum(d.calls for d in deltas), sum(d.ms for d in deltas)
        top = [(d.text, d.calls, d.ms) for d in sorted(deltas, key=lambda d: -d.ms)[:TOP]]
    totals = [0, 0, 0, 0]  # inserted, updated, deleted, HOT
    written: dict[str, int] = {}
    for name, now in after.tables.items():
        change = [value - old for value, old in zip(now, before.tables.get(name, (0, 0, 0, 0)), strict=True)]
        totals = [total + value for total, value in zip(totals, change, strict=True)]
        written[name] = sum(change[:3])
    inserted, updated, deleted, hot = totals
    top_tables = sorted(((n, w) for n, w in written.items() if w), key=lambda item: -item[1])[:TOP]
    return PgWork(statements, ms, inserted + updated + deleted, inserted + updated, hot,
                  after.wal_bytes - before.wal_bytes, top, top_tables)


def per_delivery(work: PgWork | None, deliveries: int) -> dict[str, float | None]:
    """Each figure of WORK divided by DELIVERIES (None when either is missing)."""
    if work is None or deliveries <= 0:
        return dict.fromkeys(FIGURES)
    values = {name: getattr(work, attr) for name, attr in FIGURES.items()}
    return {name: None if value is None else value / deliveries for name, value in values.items()}

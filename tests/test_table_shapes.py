"""The workers' hand-written SQL names only columns the SQLModel tables have, with their types."""

from __future__ import annotations

import importlib
import pkgutil
import re
from pathlib import Path

import pytest
from sqlmodel import SQLModel

import hub.models  # noqa: F401  (registers every table on the metadata)
import workers
from hub.dataplane.models import DeliveryAttempt, DeliveryJob, JobState, LoggedEvent
from hub.tableshape import column_list, columns, copy_types, pg_type
from workers.deliver import store as deliver_store
from workers.ingest import job_rows, store

ROOT = Path(__file__).resolve().parent.parent
# A job state written as a SQL literal: ``state IN ('pending', …)``, ``state = 'delivered'``.
STATE_LITERAL = re.compile(r"\bstate\s*(?:IN\s*\(|=|<>|!=)\s*'")

INSERT = re.compile(r"INSERT\s+INTO\s+(\w+)\s*\(([^)]*)\)", re.IGNORECASE)


def _worker_sql() -> list[tuple[str, str]]:
    """Every module-level string constant under ``workers/`` that holds an INSERT."""
    found = []
    for info in pkgutil.walk_packages(workers.__path__, "workers."):
        module = importlib.import_module(info.name)
        for name, value in vars(module).items():
            if name.isupper() and isinstance(value, str) and INSERT.search(value):
                found.append((f"{info.name}.{name}", value))
    return found


def test_the_workers_write_some_sql():
    """The scan below is not vacuous: it sees the ingest and DLQ observer statements."""
    names = {name for name, _ in _worker_sql()}
    assert {"workers.ingest.store.ALLOCATE_SQL", "workers.ingest.heartbeat.UPSERT_SQL",
            "workers.dlq_observer.INSERT_SQL"} <= names


@pytest.mark.parametrize(("name", "sql"), _worker_sql(), ids=lambda value: value.split("\n")[0][:60])
def test_every_insert_names_columns_of_its_model(name, sql):
    tables = SQLModel.metadata.tables
    for table, listed in INSERT.findall(sql):
        assert table in tables, f"{name} writes to {table}, which no model declares"
        missing = {column.strip() for column in listed.split(",")} - set(tables[table].columns.keys())
        assert not missing, f"{name} names {missing}, not columns of {table}"


def test_copy_shapes_follow_the_models():
    assert store.EVENT_COLUMNS == ", ".join(column.name for column in LoggedEvent.__table__.columns)
    assert set(job_rows.COLUMNS) == set(columns(DeliveryJob))  # the encoded job rows fill every column
    assert len(store.EVENT_TYPES) == len(LoggedEvent.__table__.columns)
    assert dict(zip(columns(LoggedEvent), store.EVENT_TYPES))["attributes"] == "text"  # json as text
    assert dict(zip(columns(DeliveryJob), copy_types(DeliveryJob)))["event_seq"] == "int8"


def test_every_column_of_every_table_has_a_postgresql_type_name():
    for table in SQLModel.metadata.tables.values():
        for column in table.columns:
            assert pg_type(column)


def test_a_name_that_is_not_a_column_is_refused():
    with pytest.raises(KeyError, match="event_log has no column nope"):
        column_list(LoggedEvent, "tenant_id", "nope")


def test_the_deliver_attempt_copy_writes_every_column_of_the_model():
    assert deliver_store.AttemptRow._fields == columns(DeliveryAttempt)
    assert deliver_store.ATTEMPT_COLUMNS == column_list(DeliveryAttempt)
    assert deliver_store.ATTEMPT_TYPES == copy_types(DeliveryAttempt)


def test_the_claim_returns_the_claimed_job_columns_then_the_lease():
    assert deliver_store.CLAIMED_COLUMNS == ("id", "tenant_id", "subscription_id", "event_seq", "state", "attempts",
                                             "created_at", "priority", "ordering_key")
    returning = deliver_store.CLAIM_SQL.split("RETURNING", 1)[1].split("\n)", 1)[0].split()
    assert " ".join(returning) == ", ".join(f"j.{name}" for name in (*deliver_store.CLAIMED_COLUMNS, "lease_until"))
    assert deliver_store.SUBSCRIPTIONS_SQL.startswith(f"SELECT {', '.join(deliver_store.SUBSCRIPTION_COLUMNS)} FROM")


def test_job_states_are_spelled_once():
    """SQL text under hub/ and workers/ names job states through JobState, never as a literal."""
    sources = [path for package in ("hub", "workers") for path in (ROOT / package).rglob("*.py")
               if "migrations" not in path.parts]
    assert len(sources) > 50
    restated = [f"{path.relative_to(ROOT)}:{number}" for path in sources
                for number, line in enumerate(path.read_text().splitlines(), 1) if STATE_LITERAL.search(line)]
    assert not restated, f"job states restated as SQL literals: {restated}"
    assert [state.value for state in JobState] == ["pending", "retrying", "delivered", "dead_lettered", "disabled",
                                                "waiting"]

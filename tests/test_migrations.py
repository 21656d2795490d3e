"""Alembic migrations bring an empty database to head, and down and up again, to the models' shape."""

from __future__ import annotations

import os
import subprocess
import sys

import psycopg
from sqlalchemy import create_engine
from sqlmodel import SQLModel

import hub.models  # noqa: F401  (registers every table on the metadata)
from hub import migrate
from devkit.pg import ScratchPostgres
from devkit.scratchdb import migrated_scratch_database

EXPECTED_TABLES = set(SQLModel.metadata.tables)
DOWNGRADE = "from hub import migrate; migrate.downgrade('base')"


def _tables(url: str) -> set[str]:
    with psycopg.connect(url.replace("+psycopg", "")) as connection:
        rows = connection.execute("SELECT tablename FROM pg_tables WHERE schemaname = 'public'").fetchall()
    return {row[0] for row in rows}


def _run(argv: list[str], url: str) -> subprocess.CompletedProcess:
    env = {**os.environ, "HUB_DATABASE_URL": url}
    return subprocess.run([sys.executable, *argv], env=env, capture_output=True, text=True, timeout=120)


def test_migrate_from_empty_up_down_and_up_again():
    """`hub migrate` upgrades an empty database and is a no-op when repeated; downgrade to base is clean."""
    cluster = ScratchPostgres.create()
    try:
        cluster.start()
        first = _run(["-m", "hub.cli", "migrate"], cluster.url)
        assert first.returncode == 0, first.stderr
        assert EXPECTED_TABLES <= _tables(cluster.url)
        again = _run(["-m", "hub.cli", "migrate"], cluster.url)
        assert again.returncode == 0, again.stderr
        down = _run(["-c", DOWNGRADE], cluster.url)
        assert down.returncode == 0, down.stderr
        assert _tables(cluster.url) <= {"alembic_version"}
        up = _run(["-m", "hub.cli", "migrate"], cluster.url)
        assert up.returncode == 0, up.stderr
        assert EXPECTED_TABLES <= _tables(cluster.url)
    finally:
        cluster.destroy()


def test_autogenerate_finds_no_drift_between_models_and_migrations():
    """A database migrated to head is what the models describe: autogenerate has nothing to write."""
    assert {"event_log", "ingest_worker_heartbeats", "pull_eligibility_hourly"} <= EXPECTED_TABLES
    with migrated_scratch_database() as url:
        engine = create_engine(url)
        try:
            with engine.connect() as connection:
                assert migrate.drift(connection) == []
        finally:
            engine.dispose()


def test_migrate_create_database_makes_the_missing_test_database_once():
    """`hub migrate --create-database` (what `make test` runs for `hub_test`) creates and migrates, then no-ops."""
    import uuid

    from hub.db import libpq_url

    name = f"hub_created_{uuid.uuid4().hex[:8]}"
    url = libpq_url().rsplit("/", 1)[0] + f"/{name}"
    hub_url = url.replace("postgresql://", "postgresql+psycopg://", 1)
    try:
        first = _run(["-m", "hub.cli", "migrate", "--create-database"], hub_url)
        assert first.returncode == 0, first.stderr
        assert "database created" in first.stdout
        assert EXPECTED_TABLES <= _tables(url)
        again = _run(["-m", "hub.cli", "migrate", "--create-database"], hub_url)
        assert again.returncode == 0, again.stderr
        assert "database created" not in again.stdout
    finally:
        with psycopg.connect(libpq_url(), autocommit=True) as admin:
            admin.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')

"""Alembic migrations bring an empty database to head, and down and up again."""

from __future__ import annotations

import os
import subprocess
import sys

import psycopg

from tests.support.pg import ScratchPostgres

EXPECTED_TABLES = {
    "subscriptions", "subscription_versions", "idempotency_records", "rate_limit_windows", "catalog_producers",
    "catalog_events", "tenant_counters", "event_log", "delivery_jobs", "delivery_attempts", "pull_cursors",
    "subscription_health", "dlq_observations", "retention_coverage",
}
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

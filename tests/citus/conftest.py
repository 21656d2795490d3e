"""Citus tests (issue 52, N107): a fresh database on the Citus cluster of `make stack DB=citus`, migrated to head.

Skipped unless the cluster answers: ``HUB_CITUS_URL`` (a database on a coordinator, already holding the citus
extension with its workers added; migrated here as it is), or else the local coordinator's port
(``HUB_CITUS_PORT``, 55442), where deploy/local/citus-stack.sh makes the database ``hub_citus_router`` afresh.
"""

from __future__ import annotations

import os
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import psycopg
import pytest

# The deliver tests' HTTPS receiver and the DNS server naming it (tests/citus/test_shard_group_delivery.py).
from tests.deliver.conftest import scripted  # noqa: F401 (a fixture)
from tests.sinks.conftest import ca, ca_bundle, hook_dns  # noqa: F401 (fixtures)

REPO = Path(__file__).resolve().parents[2]
FRESH_DATABASE = "hub_citus_router"


@pytest.fixture(scope="session", autouse=True)
def migrated_database() -> None:
    """Overrides the suite's: these tests migrate their own database on the Citus coordinator, never
    ``HUB_DATABASE_URL``'s."""


def _answers(url: str) -> bool:
    """Whether ``url`` is a PostgreSQL database with the citus extension available."""
    try:
        with psycopg.connect(url, connect_timeout=3) as conn:
            return conn.execute("SELECT 1 FROM pg_available_extensions WHERE name = 'citus'").fetchone() is not None
    except psycopg.OperationalError:
        return False


def _fresh_local_database() -> str:
    """The local cluster's coordinator, with ``hub_citus_router`` made anew on every node."""
    port = os.environ.get("HUB_CITUS_PORT", "55442")
    if not _answers(f"postgresql://hub:hub@127.0.0.1:{port}/hub"):
        pytest.skip(f"no Citus coordinator answers on 127.0.0.1:{port} (make stack DB=citus)")
    if os.geteuid() != 0:
        pytest.skip("making a database on every Citus node needs root (deploy/local/citus-stack.sh)")
    made = subprocess.run(["bash", "deploy/local/citus-stack.sh", "database", FRESH_DATABASE, "--fresh"],
                          cwd=REPO, capture_output=True, text=True, timeout=120)
    assert made.returncode == 0, made.stdout + made.stderr
    return f"postgresql://hub:hub@127.0.0.1:{port}/{FRESH_DATABASE}"


@pytest.fixture(scope="session")
def citus_url() -> Iterator[str]:
    """A libpq URL of a Citus database migrated to head."""
    given = os.environ.get("HUB_CITUS_URL", "").replace("postgresql+psycopg://", "postgresql://", 1)
    if given and not _answers(given):
        pytest.skip("HUB_CITUS_URL does not answer, or has no citus extension")
    url = given or _fresh_local_database()
    env = {**os.environ, "HUB_DATABASE_URL": url.replace("postgresql://", "postgresql+psycopg://", 1)}
    migrated = subprocess.run([sys.executable, "-m", "hub.cli", "migrate"], cwd=REPO, env=env,
                              capture_output=True, text=True, timeout=300)
    assert migrated.returncode == 0, migrated.stderr
    yield url

"""A migrated throwaway PostgreSQL for tests that need whole global tables to themselves.

The catalog and dead-letter tables are global (not per tenant), so a test that asserts on the
whole body of ``GET /v1/catalog`` or an unfiltered ``GET /admin/dlq`` points the hub at one of
these instead of the shared database.
"""

from __future__ import annotations

import os
import subprocess
import sys
from collections.abc import Callable, Iterator
from contextlib import contextmanager

from devkit.pg import ScratchPostgres


@contextmanager
def migrated_scratch_cluster() -> Iterator[ScratchPostgres]:
    """Start a scratch cluster, run ``hub migrate`` against it in a subprocess, yield the cluster
    (a test that stops and starts the database needs the cluster, not only its URL)."""
    cluster = ScratchPostgres.create()
    try:
        cluster.start()
        env = {**os.environ, "HUB_DATABASE_URL": cluster.url}
        result = subprocess.run([sys.executable, "-m", "hub.cli", "migrate"], env=env, capture_output=True,
                                text=True, timeout=180)
        assert result.returncode == 0, result.stderr[-2000:]
        yield cluster
    finally:
        cluster.destroy()


@contextmanager
def migrated_scratch_database() -> Iterator[str]:
    """A migrated scratch cluster's URL."""
    with migrated_scratch_cluster() as cluster:
        yield cluster.url


@contextmanager
def hub_database(url: str, override_settings: Callable[..., None], **settings: object) -> Iterator[None]:
    """Point the hub's settings and engine at ``url`` for the duration of the block."""
    from hub.db import get_engine

    get_engine.cache_clear()
    override_settings(database_url=url, **settings)
    try:
        yield
    finally:
        get_engine().dispose()
        get_engine.cache_clear()

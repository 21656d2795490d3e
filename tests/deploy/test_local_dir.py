"""deploy/local/lib.sh names the real `.local` directory, so that a checkout whose `.local` is a symlink to
another's recognises the services that checkout started instead of calling their pid files stale."""

from __future__ import annotations

import subprocess

import pytest

from tests.deploy.helm import REPO


@pytest.fixture(scope="module", autouse=True)
def migrated_database() -> None:
    """Shell only: no database."""


def test_a_symlinked_local_dir_is_resolved(tmp_path):
    shared = tmp_path / "main" / ".local"
    shared.mkdir(parents=True)
    worktree = tmp_path / "worktree"
    worktree.mkdir()
    (worktree / ".local").symlink_to(shared)
    script = f'REPO_ROOT="{worktree}"; . "{REPO / "deploy" / "local" / "lib.sh"}"; echo "$KAFKA_PROPS"; echo "$RMQ_DIR"'
    done = subprocess.run(["bash", "-c", script], capture_output=True, text=True, timeout=30, env={"PATH": "/usr/bin:/bin"})
    assert done.returncode == 0, done.stderr
    assert done.stdout.split() == [f"{shared.resolve()}/kafka/server.properties", f"{shared.resolve()}/rabbitmq"]

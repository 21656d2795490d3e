"""Every make target gives the environment priority over `.local/env` (issue 50): the file that
`make stack` writes only fills what the operator left unset, as the settings themselves do."""

from __future__ import annotations

import os
import subprocess
from pathlib import Path

import pytest

from tests.deploy.helm import REPO


@pytest.fixture(scope="module", autouse=True)
def migrated_database() -> None:
    """These tests run make on a scratch env file: no database."""


ENV_FILE = """HUB_DATABASE_URL=postgresql+psycopg://hub:hub@127.0.0.1:5432/hub
HUB_AWS_HUB_PRINCIPAL_ARN=arn:aws:iam::000000000000:role/streaming-hub-local
HUB_AWS_SETUP_TEMPLATE_URL=http://127.0.0.1:5000/templates/delivery-role.yaml
HUB_RABBITMQ_URL=amqp://hub:hub@127.0.0.1:5672/%2F
"""
NAMES = ("HUB_DATABASE_URL", "HUB_AWS_HUB_PRINCIPAL_ARN", "HUB_AWS_SETUP_TEMPLATE_URL", "HUB_RABBITMQ_URL")


def seen_by_a_step(tmp_path: Path, prefix: str, **exported: str) -> dict[str, str]:
    """What a recipe prefixed with the Makefile's `prefix` variable sees, the environment holding `exported`."""
    local = tmp_path / "local"
    local.mkdir(exist_ok=True)
    (local / "env").write_text(ENV_FILE)
    env = {k: v for k, v in os.environ.items() if not k.startswith("HUB_")}
    env.update(exported, HUB_LOCAL_DIR=str(local))
    # A throwaway target: the real ones start the stack first.
    probe = f"probe: ; @$({prefix}) " + "; ".join(f'echo "{n}=$${{{n}}}"' for n in NAMES)
    done = subprocess.run(["make", "-s", "--no-print-directory", "--eval", probe, "probe"], cwd=REPO, env=env,
                          capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    return dict(line.split("=", 1) for line in done.stdout.splitlines())


def test_the_environment_wins_over_the_env_file(tmp_path):
    seen = seen_by_a_step(tmp_path, "WITH_ENV", HUB_AWS_SETUP_TEMPLATE_URL="https://example.com/role.yaml",
                          HUB_AWS_HUB_PRINCIPAL_ARN="arn:aws:iam::123456789012:role/hub")
    assert seen["HUB_AWS_SETUP_TEMPLATE_URL"] == "https://example.com/role.yaml"
    assert seen["HUB_AWS_HUB_PRINCIPAL_ARN"] == "arn:aws:iam::123456789012:role/hub"
    # What the environment leaves unset comes from the file, word for word.
    assert seen["HUB_RABBITMQ_URL"] == "amqp://hub:hub@127.0.0.1:5672/%2F"
    assert seen["HUB_DATABASE_URL"] == "postgresql+psycopg://hub:hub@127.0.0.1:5432/hub"


def test_an_empty_exported_value_still_wins(tmp_path):
    """Set to the empty string is set: the operator cleared it on purpose."""
    seen = seen_by_a_step(tmp_path, "WITH_ENV", HUB_AWS_HUB_PRINCIPAL_ARN="")
    assert seen["HUB_AWS_HUB_PRINCIPAL_ARN"] == ""


def test_the_test_targets_keep_their_own_database(tmp_path):
    """`make test` swaps the database name of whichever URL wins, the environment's or the file's."""
    seen = seen_by_a_step(tmp_path, "WITH_TEST_ENV", HUB_DATABASE_URL="postgresql+psycopg://ops:pw@db:5432/hub")
    assert seen["HUB_DATABASE_URL"] == "postgresql+psycopg://ops:pw@db:5432/hub_test"
    assert seen_by_a_step(tmp_path, "WITH_TEST_ENV")["HUB_DATABASE_URL"].endswith("127.0.0.1:5432/hub_test")

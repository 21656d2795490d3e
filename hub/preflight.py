"""Start-up checks: one clear line naming an unreachable dependency and how to start it."""

from __future__ import annotations

import sys
import time
from typing import NoReturn
from urllib.parse import urlsplit

from hub.config import get_settings
from hub.db import ping_database
from hub.kafka import ping_kafka

START_HINT = "start it with `make stack` (or `bash deploy/local/stack.sh`)"
STARTUP_RETRY_SECONDS = 1.0


def _host_port(url: str) -> str:
    parts = urlsplit(url.replace("postgresql+psycopg://", "postgresql://", 1))
    return f"{parts.hostname}:{parts.port or 5432}"


def _configuration_problems() -> list[str]:
    """Settings that would only fail later, on the first secret or destination, are checked now."""
    from hub.egress import validate_egress_settings
    from hub.errors import HubError
    from hub.secrets import validate_encryption_keys

    problems = []
    for validate in (validate_encryption_keys, validate_egress_settings):
        try:
            validate()
        except HubError as exc:
            problems.append(exc.detail)
    return problems


def _unreachable(*, database: bool, kafka: bool) -> list[str]:
    """One line per dependency that does not answer now."""
    settings, problems = get_settings(), []
    if database:
        try:
            ping_database(timeout_seconds=3)
        except Exception as exc:  # noqa: BLE001
            problems.append(
                f"PostgreSQL at {_host_port(settings.database_url)} is not reachable "
                f"({type(exc).__name__}); {START_HINT}"
            )
    if kafka:
        try:
            ping_kafka(timeout_seconds=5)
        except Exception as exc:  # noqa: BLE001
            problems.append(
                f"Kafka at {settings.kafka_bootstrap} is not reachable ({type(exc).__name__}); {START_HINT}"
            )
    return problems


def _exit_with(problems: list[str]) -> NoReturn:
    for line in problems:
        print(f"streaming-hub: {line}", file=sys.stderr)
    raise SystemExit(1)


def require_dependencies(*, database: bool = True, kafka: bool = True) -> None:
    """Exit with one line per configuration problem, or per dependency still unreachable after
    ``startup_wait_seconds``; return quietly when all answer.

    A process restarted while PostgreSQL or Kafka restarts (a deployment's orchestrator, the chaos
    run's supervisor) waits for it as a running process does, instead of exiting; at a terminal the
    default (0) names the missing dependency at once."""
    problems = _configuration_problems()
    if problems:
        _exit_with(problems)
    deadline = time.monotonic() + get_settings().startup_wait_seconds
    while problems := _unreachable(database=database, kafka=kafka):
        if time.monotonic() >= deadline:
            _exit_with(problems)
        print(f"streaming-hub: waiting for {'; '.join(problems)}", file=sys.stderr)
        time.sleep(STARTUP_RETRY_SECONDS)

"""Start-up checks: one clear line naming an unreachable dependency and how to start it."""

from __future__ import annotations

import sys
from urllib.parse import urlsplit

from hub.config import get_settings
from hub.db import ping_database
from hub.kafka import ping_kafka

START_HINT = "start it with `make stack` (or `bash deploy/local/stack.sh`)"


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


def require_dependencies(*, database: bool = True, kafka: bool = True) -> None:
    """Exit with one line per unreachable dependency; return quietly when all answer."""
    settings = get_settings()
    problems = _configuration_problems()
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
    if problems:
        for line in problems:
            print(f"streaming-hub: {line}", file=sys.stderr)
        raise SystemExit(1)

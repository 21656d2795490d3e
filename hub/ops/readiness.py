"""Readiness checks (docs/contract-notes.md N8): each returns a state and a short, secret-free detail.

The body of ``/readyz`` lists them under ``probes`` (the contract's name); in the code a "probe" is a
destination check (ping, verify, probe-on-write), and these are readiness checks.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from hub.db import ping_database
from hub.kafka import ping_kafka


@dataclass(frozen=True)
class ReadinessOutcome:
    name: str
    state: str  # healthy | degraded | down
    detail: str


ReadinessCheck = Callable[[], ReadinessOutcome]


def database_readiness() -> ReadinessOutcome:
    try:
        ping_database()
    except Exception as exc:  # noqa: BLE001 (any failure means not ready)
        return ReadinessOutcome("database", "down", f"PostgreSQL did not answer ({type(exc).__name__})")
    return ReadinessOutcome("database", "healthy", "PostgreSQL answered")


def kafka_readiness() -> ReadinessOutcome:
    try:
        brokers = ping_kafka()
    except Exception as exc:  # noqa: BLE001
        return ReadinessOutcome("kafka", "down", f"Kafka did not answer ({type(exc).__name__})")
    return ReadinessOutcome("kafka", "healthy", f"{brokers} broker(s) answered")


# What /readyz runs; hub/app.py registers the whole list (READINESS_CHECKS) when it builds the app.
CHECKS: list[ReadinessCheck] = []


def register_check(check: ReadinessCheck) -> None:
    """Add ``check`` to what /readyz runs (once, however often the app is built)."""
    if check not in CHECKS:
        CHECKS.append(check)


def fold(outcomes: list[ReadinessOutcome]) -> str:
    states = {outcome.state for outcome in outcomes}
    if "down" in states:
        return "down"
    return "degraded" if "degraded" in states else "healthy"

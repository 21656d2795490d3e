"""Readiness probes (docs/contract-notes.md N8): each returns a state and a short, secret-free detail."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from hub.db import ping_database
from hub.kafka import ping_kafka


@dataclass(frozen=True)
class ProbeOutcome:
    name: str
    state: str  # healthy | degraded | down
    detail: str


ProbeFn = Callable[[], ProbeOutcome]


def database_probe() -> ProbeOutcome:
    try:
        ping_database()
    except Exception as exc:  # noqa: BLE001 (any failure means not ready)
        return ProbeOutcome("database", "down", f"PostgreSQL did not answer ({type(exc).__name__})")
    return ProbeOutcome("database", "healthy", "PostgreSQL answered")


def kafka_probe() -> ProbeOutcome:
    try:
        brokers = ping_kafka()
    except Exception as exc:  # noqa: BLE001
        return ProbeOutcome("kafka", "down", f"Kafka did not answer ({type(exc).__name__})")
    return ProbeOutcome("kafka", "healthy", f"{brokers} broker(s) answered")


# What /readyz runs; hub/app.py registers the whole list (READINESS_PROBES) when it builds the app.
PROBES: list[ProbeFn] = []


def register_probe(probe: ProbeFn) -> None:
    """Add ``probe`` to what /readyz runs (once, however often the app is built)."""
    if probe not in PROBES:
        PROBES.append(probe)


def fold(outcomes: list[ProbeOutcome]) -> str:
    states = {outcome.state for outcome in outcomes}
    if "down" in states:
        return "down"
    return "degraded" if "degraded" in states else "healthy"

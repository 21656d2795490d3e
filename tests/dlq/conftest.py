"""Dead-letter read tests: a scratch database of their own (the observations are cross-tenant)."""

from __future__ import annotations

import random
import uuid
from collections.abc import Callable, Iterator
from datetime import UTC, datetime, timedelta

import psycopg
import pytest

from hub.db import session_scope
from hub.dlq.models import DLQObservation
from hub.ids import new_id
from devkit.scratchdb import hub_database, migrated_scratch_database


@pytest.fixture(scope="session")
def dlq_scratch_url() -> Iterator[str]:
    with migrated_scratch_database() as url:
        yield url


@pytest.fixture
def dlq_db(dlq_scratch_url: str, override_settings: Callable[..., None]) -> Iterator[str]:
    """The hub pointed at the scratch database with no observations in it."""
    with psycopg.connect(dlq_scratch_url.replace("+psycopg", "")) as connection:
        connection.execute("TRUNCATE dlq_observations")
    with hub_database(dlq_scratch_url, override_settings):
        yield dlq_scratch_url


@pytest.fixture
def operator_headers(make_token) -> dict[str, str]:
    return {"Authorization": f"Bearer {make_token(operator=True)}"}


@pytest.fixture
def observe() -> Callable[..., list[DLQObservation]]:
    """Insert observations directly (the fixture of a read route), oldest first; returns them in order."""
    def insert(count: int = 1, **fields: object) -> list[DLQObservation]:
        rows = []
        base = datetime(2030, 1, 1, tzinfo=UTC)
        for index in range(count):
            values = {
                "source_topic": "lerian.streaming.ledger", "error_class": "serialization",
                "error_message": "record is not a CloudEvent", "retry_count": 0,
                "first_failure_at": base + timedelta(seconds=index), "producer_id": f"p-{index}",
                "observed_at": base + timedelta(seconds=index, milliseconds=5), "tenant_id_raw": "tenant-acme",
                "dlq_partition": random.randrange(0, 1000), "dlq_offset": random.randrange(0, 2**62),
                **fields,
            }
            rows.append(DLQObservation(id=new_id(), **values))
        with session_scope() as session:
            session.add_all(rows)
        return rows

    return insert


@pytest.fixture
def unique() -> str:
    return uuid.uuid4().hex[:8]

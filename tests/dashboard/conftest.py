"""Fixtures for the health, dashboard and retention tests: subscriptions, tokens, coverage."""

from __future__ import annotations

import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from datetime import datetime, timedelta
from typing import Any

import psycopg
import pytest
from sqlalchemy import text

from hub.db import get_engine, libpq_url
from tests.subscriptions.conftest import PUBLIC_WEBHOOK, Api
from devkit.deliveries import now


@pytest.fixture
def api(client, make_token) -> Api:
    return Api(client=client, token=make_token())


def set_coverage(moment: datetime, *, swept_at: datetime | None | object = ...) -> None:
    """Record ``moment`` as the coverage bound, as a sweep (at ``swept_at``, default now) left it."""
    swept = now() if swept_at is ... else swept_at
    with get_engine().begin() as connection:
        connection.execute(text("UPDATE retention_coverage SET coverage_start = :at, swept_at = :swept WHERE id = 1"),
                           {"at": moment, "swept": swept})


def read_coverage() -> datetime:
    """The stored bound (what the last sweep wrote, or the install's initial value)."""
    with get_engine().connect() as connection:
        return connection.execute(text("SELECT coverage_start FROM retention_coverage WHERE id = 1")).scalar_one()


def read_swept_at() -> datetime | None:
    with get_engine().connect() as connection:
        return connection.execute(text("SELECT swept_at FROM retention_coverage WHERE id = 1")).scalar_one()


@pytest.fixture
def coverage() -> Iterator[Callable[..., None]]:
    """History is retained from 60 days ago unless the test says otherwise; restored afterwards."""
    original, swept = read_coverage(), read_swept_at()
    set_coverage(now() - timedelta(days=60))
    yield set_coverage
    set_coverage(original, swept_at=swept)


def webhook(api: Api, **fields: Any) -> str:
    """A webhook subscription id; pass ``verification_state``/``enabled`` to set them afterwards."""
    state = fields.pop("verification_state", "active")
    enabled = fields.pop("enabled", True)
    sub_id = api.created(sink_kind="webhook", endpoint=PUBLIC_WEBHOOK, **fields)["subscription"]["id"]
    with get_engine().begin() as connection:
        connection.execute(text("UPDATE subscriptions SET verification_state = :s, enabled = :e WHERE id = :id"),
                           {"s": state, "e": enabled, "id": sub_id})
    return sub_id


def pull(api: Api, **fields: Any) -> str:
    """A pull subscription, dated 40 days back so the history the test seeds arrived after it."""
    sub_id = api.created(sink_kind="pull", **fields)["subscription"]["id"]
    with get_engine().begin() as connection:
        connection.execute(text("UPDATE subscriptions SET created_at = now() - interval '40 days' WHERE id = :id"),
                           {"id": sub_id})
    return sub_id


@contextmanager
def table_locked(table: str) -> Iterator[None]:
    """Another session holds ``table`` in ACCESS EXCLUSIVE mode, so every read of it waits."""
    locked, release = threading.Event(), threading.Event()

    def hold() -> None:
        with psycopg.connect(libpq_url()) as connection, connection.transaction():
            connection.execute(f"LOCK TABLE {table} IN ACCESS EXCLUSIVE MODE")
            locked.set()
            release.wait(10)

    holder = threading.Thread(target=hold)
    holder.start()
    try:
        assert locked.wait(10)
        yield
    finally:
        release.set()
        holder.join(10)

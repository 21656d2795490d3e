"""Ordered delivery's data plane on the test database: each test works on subscriptions of its own."""

from __future__ import annotations

import uuid
from collections.abc import Iterator
from typing import Any

import psycopg
import pytest

from hub.dataplane import ordering
from hub.dataplane.ordering import OrderedJob
from hub.db import libpq_url
from hub.ids import new_id


@pytest.fixture
def url() -> str:
    return libpq_url()


@pytest.fixture
def conn(url: str) -> Iterator[psycopg.Connection]:
    with psycopg.connect(url, autocommit=True) as connection:
        yield connection


def jobs_for(subscription: uuid.UUID, tenant: str, keyed: list[tuple[str, int]]) -> list[OrderedJob]:
    """One new ordered job per (key, seq)."""
    return [OrderedJob(subscription, key, seq, tenant, new_id()) for key, seq in keyed]


def enqueue(conn: psycopg.Connection, jobs: list[OrderedJob], priority: int = 0) -> int:
    with conn.transaction():
        return ordering.run(conn.cursor(), ordering.enqueue(jobs, priority=priority))


def states(conn: psycopg.Connection, subscription: uuid.UUID) -> dict[tuple[str, int], str]:
    """(key, seq) -> state of the subscription's jobs (the newest job of an event when it has two)."""
    rows = conn.execute("SELECT ordering_key, event_seq, state FROM delivery_jobs WHERE subscription_id = %s"
                        " ORDER BY id", (subscription,)).fetchall()
    return {(key, seq): state for key, seq, state in rows}


def key_rows(conn: psycopg.Connection, subscription: uuid.UUID) -> dict[str, tuple[Any, ...]]:
    """key -> (head's event seq, head's state, blocked)."""
    rows = conn.execute("""
        SELECT k.ordering_key, j.event_seq, j.state, k.blocked_at IS NOT NULL
          FROM ordered_keys AS k JOIN delivery_jobs AS j ON j.id = k.head_job_id
         WHERE k.subscription_id = %s""", (subscription,)).fetchall()
    return {key: (seq, state, blocked) for key, seq, state, blocked in rows}


def head_of(conn: psycopg.Connection, subscription: uuid.UUID, key: str) -> uuid.UUID:
    [(head,)] = conn.execute("SELECT head_job_id FROM ordered_keys WHERE subscription_id = %s AND ordering_key = %s",
                             (subscription, key)).fetchall()
    return head


def end(conn: psycopg.Connection, subscription: uuid.UUID, key: str, state: str, *, block: bool = False) -> None:
    """The settle of the key's head: its new state, then the key's advance or block, in one transaction."""
    head = head_of(conn, subscription, key)
    with conn.transaction():
        conn.execute("UPDATE delivery_jobs SET state = %s WHERE id = %s", (state, head))
        ordering.run(conn.cursor(), ordering.end_heads([ordering.EndedHead(subscription, key, head, block)]))

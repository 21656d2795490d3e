"""Fixtures of the blocked-keys tests (N77): an ordered webhook subscription, keys with waiting events
enqueued and blocked through the data plane's own statements (hub/dataplane/ordering.py)."""

from __future__ import annotations

import uuid
from dataclasses import dataclass
from typing import Any

import psycopg
import pytest

from devkit.deliveries import add_event, now, record_attempt
from hub.dataplane import ordering
from hub.db import libpq_url
from hub.ids import new_id
from hub.sinks.vocabulary import ErrorClass, Outcome
from tests.dashboard.conftest import webhook
from tests.subscriptions.conftest import Api, new_key

BLOCK = {"key": "partitionkey", "on_dead_letter": "block"}


@pytest.fixture
def api(client, make_token) -> Api:  # noqa: ANN001
    return Api(client=client, token=make_token())


def ordered_webhook(api: Api, ordering_option: dict[str, Any] | None = None) -> str:
    """An active webhook subscription with the ordering option (block by default)."""
    sub_id = webhook(api)
    assert api.put_options(sub_id, {"ordering": ordering_option or BLOCK}).status_code == 200
    return sub_id


@dataclass
class Key:
    """A key's jobs as enqueued: ids and event seqs in event order (the first is the head)."""

    value: str
    jobs: list[uuid.UUID]
    seqs: list[int]


def enqueue_key(tenant: str, sub_id: str, key: str, count: int) -> Key:
    """``count`` events of one key, enqueued as ingest does: the first pending, the rest waiting."""
    seqs = [add_event(tenant, received_at=now()) for _ in range(count)]
    jobs = [ordering.OrderedJob(uuid.UUID(sub_id), key, seq, tenant, new_id()) for seq in seqs]
    with psycopg.connect(libpq_url()) as conn:
        ordering.run(conn.cursor(), ordering.enqueue(jobs, priority=0))
    return Key(key, [job.id for job in jobs], seqs)


def head_of(sub_id: str, key: str) -> uuid.UUID | None:
    with psycopg.connect(libpq_url()) as conn:
        row = conn.execute("SELECT head_job_id FROM ordered_keys WHERE subscription_id = %s AND ordering_key = %s",
                           (sub_id, key)).fetchone()
    return None if row is None else row[0]


def block(tenant: str, sub_id: str, key: str) -> uuid.UUID:
    """The key's head dead-letters (one recorded attempt, as the engine records it) and blocks the key."""
    head = head_of(sub_id, key)
    assert head is not None
    with psycopg.connect(libpq_url()) as conn:
        [(seq,)] = conn.execute("SELECT event_seq FROM delivery_jobs WHERE id = %s", (head,)).fetchall()
    record_attempt(tenant, sub_id, Outcome.dead_lettered, at=now(), job_id=head, event_seq=seq,
                   error_class=ErrorClass.http_4xx)
    with psycopg.connect(libpq_url()) as conn:
        ordering.run(conn.cursor(), ordering.end_heads([ordering.EndedHead(uuid.UUID(sub_id), key, head, True)]))
    return head


def job_states(sub_id: str) -> dict[uuid.UUID, str]:
    with psycopg.connect(libpq_url()) as conn:
        return dict(conn.execute("SELECT id, state FROM delivery_jobs WHERE subscription_id = %s", (sub_id,)))


def key_values(sub_id: str) -> set[str]:
    with psycopg.connect(libpq_url()) as conn:
        return {key for (key,) in conn.execute("SELECT ordering_key FROM ordered_keys WHERE subscription_id = %s",
                                               (sub_id,))}


def listed(api: Api, sub_id: str, **params: Any) -> Any:
    return api.client.get(f"/v1/subscriptions/{sub_id}/blocked-keys", params=params, headers=api.headers(None))


def resume(api: Api, sub_id: str, body: Any, *, key: str | None = "new", token: str | None = None) -> Any:
    return api.client.post(f"/v1/subscriptions/{sub_id}/blocked-keys/resume", json=body,
                           headers=api.headers(key if key != "new" else new_key(), token))

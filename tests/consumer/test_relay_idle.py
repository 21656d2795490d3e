"""A tenant without consumer queues costs the relay no per-event work (N88): its events are not read or
published, its cursor moves to the end of its log in the page's transaction, and later notifications of it
read nothing until a queue is created. A queue created then gets what is stored after it, never earlier
events; a tenant that still has a queue keeps every event; a queue's creation wakes the relays."""

from __future__ import annotations

import asyncio
import threading
import uuid

import psycopg

from hub.consumer.projection import QUEUES_CHANGED, STORED_CHANNEL
from hub.consumer.service import _insert
from hub.db import libpq_url
from tests.consumer.test_relay_round import INSERT_SQL, cursor_of, relayed, seeded

STORE_SQL = INSERT_SQL.replace("generate_series(1, %(count)s)", "generate_series(CAST(%(first)s AS int), CAST(%(last)s AS int))")


def store(tenant: str, first: int, last: int) -> None:
    """Events FIRST..LAST of TENANT, stored with their counter, as ingest does in one transaction."""
    with psycopg.connect(libpq_url()) as conn:
        conn.execute(STORE_SQL, {"tenant": tenant, "first": first, "last": last})
        conn.execute("UPDATE tenant_counters SET last_seq = %s WHERE tenant_id = %s", (last, tenant))


def drop_queues(tenant: str) -> None:
    with psycopg.connect(libpq_url(), autocommit=True) as conn:
        conn.execute("DELETE FROM consumer_queues WHERE tenant_id = %s", (tenant,))


def test_a_tenant_without_queues_is_skipped_and_its_cursor_moved() -> None:
    tenant = seeded(5, queues=0)
    idle: set[str] = set()
    outlet, reads = asyncio.run(relayed(tenant, idle=idle))
    assert outlet.pages == [], "no queue: nothing is published"
    assert cursor_of(tenant) == 5, "the cursor is at the end of the log"
    assert idle == {tenant}
    store(tenant, 6, 9)
    outlet, reads = asyncio.run(relayed(tenant, idle=idle))
    assert (outlet.pages, reads) == ([], 0), "a notification of an idle tenant reads nothing"


def test_a_queue_created_later_gets_what_is_stored_after_it() -> None:
    tenant = seeded(5, queues=0)
    store(tenant, 6, 7)  # stored while the relay passed the tenant over: its cursor is left at 0
    assert _insert(f"{tenant}-new", tenant, True, ())
    assert cursor_of(tenant) == 7, "the first queue moves a left-behind cursor to the end of the log"
    store(tenant, 8, 10)
    outlet, _ = asyncio.run(relayed(tenant, idle=set()))  # the creation's notification cleared the idle set
    assert outlet.pages == [[8, 9, 10]]
    assert cursor_of(tenant) == 10


def test_the_last_queue_going_and_a_new_one_coming() -> None:
    tenant = seeded(3)
    idle: set[str] = set()
    outlet, _ = asyncio.run(relayed(tenant, idle=idle))
    assert outlet.pages == [[1, 2, 3]] and idle == set()
    drop_queues(tenant)
    store(tenant, 4, 6)
    outlet, _ = asyncio.run(relayed(tenant, idle=idle))
    assert (outlet.pages, cursor_of(tenant), idle) == ([], 6, {tenant})
    assert _insert(f"{tenant}-again", tenant, True, ())
    store(tenant, 7, 8)
    idle.clear()
    outlet, _ = asyncio.run(relayed(tenant, idle=idle))
    assert outlet.pages == [[7, 8]]


def test_a_second_queue_leaves_the_cursor_for_the_first() -> None:
    tenant = seeded(4)  # a queue, and four events not yet relayed
    assert _insert(f"{tenant}-second", tenant, True, ())
    assert cursor_of(tenant) == 0, "the first queue is still owed events 1-4"
    outlet, _ = asyncio.run(relayed(tenant, idle=set()))
    assert outlet.pages == [[1, 2, 3, 4]]


def test_a_queue_created_mid_page_does_not_wait_for_the_relay() -> None:
    tenant = seeded(2)
    relay = psycopg.connect(libpq_url())  # a relay in the middle of a page holds the cursor row
    created: list[bool] = []
    try:
        relay.execute("SELECT 1 FROM consumer_relay_cursors WHERE tenant_id = %s FOR UPDATE", (tenant,))
        worker = threading.Thread(target=lambda: created.append(_insert(f"{tenant}-mid", tenant, True, ())))
        worker.start()
        worker.join(30)  # a guard against a hang, not a measurement
        assert created == [True], "the creation did not wait for the relay's page"
    finally:
        relay.rollback()
        relay.close()
    outlet, _ = asyncio.run(relayed(tenant, idle=set()))
    assert outlet.pages == [[1, 2]], "nothing of the page was lost to the creation"


def test_a_queue_creation_wakes_the_relays() -> None:
    tenant = f"relay-{uuid.uuid4().hex[:8]}"
    with psycopg.connect(libpq_url(), autocommit=True) as listener:
        listener.execute(f"LISTEN {STORED_CHANNEL}")
        assert _insert(f"{tenant}-q", tenant, True, ())
        payloads = [notify.payload for notify in listener.notifies(timeout=10, stop_after=1)]
    assert payloads == [QUEUES_CHANGED]

"""hub/dataplane/ordering.py against PostgreSQL: enqueue, advance, block, resume, release, and the
two-statement advance that sees an ingest committed while it waited for the key's lock."""

from __future__ import annotations

import asyncio
import threading
import uuid

import psycopg

from hub.dataplane import ordering
from hub.dataplane.ordering import EndedHead
from tests.ordering.conftest import end, enqueue, head_of, jobs_for, key_rows, states


def test_a_keys_first_job_is_pending_and_every_later_one_waits(conn: psycopg.Connection, tenant: str) -> None:
    sub = uuid.uuid4()
    pending = enqueue(conn, jobs_for(sub, tenant, [("b", 4), ("a", 2), ("a", 1), ("b", 3), ("a", 5)]))
    assert pending == 2
    assert states(conn, sub) == {("a", 1): "pending", ("a", 2): "waiting", ("a", 5): "waiting",
                                 ("b", 3): "pending", ("b", 4): "waiting"}
    assert enqueue(conn, jobs_for(sub, tenant, [("a", 6), ("c", 7)])) == 1  # a has a head: 6 waits
    assert key_rows(conn, sub) == {"a": (1, "pending", False), "b": (3, "pending", False), "c": (7, "pending", False)}
    assert states(conn, sub)[("a", 6)] == "waiting"


def test_an_ended_head_hands_the_key_to_its_next_job_in_event_order(conn: psycopg.Connection, tenant: str) -> None:
    sub = uuid.uuid4()
    enqueue(conn, jobs_for(sub, tenant, [("a", 1), ("a", 3), ("a", 2)]))
    end(conn, sub, "a", "delivered")
    assert key_rows(conn, sub) == {"a": (2, "pending", False)}
    end(conn, sub, "a", "dead_lettered")  # policy skip: the key moves on
    assert key_rows(conn, sub) == {"a": (3, "pending", False)}
    end(conn, sub, "a", "disabled")
    assert key_rows(conn, sub) == {}  # emptied: no open job, no row
    assert enqueue(conn, jobs_for(sub, tenant, [("a", 9)])) == 1


def test_a_promoted_job_is_due_from_when_it_was_stored_ahead_of_later_jobs(
        conn: psycopg.Connection, tenant: str) -> None:
    sub = uuid.uuid4()
    enqueue(conn, jobs_for(sub, tenant, [("a", 1), ("a", 2)]))
    conn.execute("UPDATE delivery_jobs SET created_at = now() - interval '1 minute' WHERE subscription_id = %s",
                 (sub,))
    enqueue(conn, jobs_for(sub, tenant, [("b", 3)]))  # stored after the key's waiting job
    end(conn, sub, "a", "delivered")
    due = dict(conn.execute("SELECT event_seq, next_attempt_at <= created_at FROM delivery_jobs "
                            "WHERE subscription_id = %s AND state = 'pending'", (sub,)).fetchall())
    assert due[2] is True  # the claim (oldest due first) takes it before the job of seq 3
    [(earlier,)] = conn.execute(
        "SELECT a.next_attempt_at < b.next_attempt_at FROM delivery_jobs a, delivery_jobs b "
        "WHERE a.subscription_id = %s AND b.subscription_id = a.subscription_id AND a.event_seq = 2 "
        "AND b.event_seq = 3", (sub,)).fetchall()
    assert earlier


def test_a_blocked_key_holds_its_later_jobs_until_skip_or_retry(conn: psycopg.Connection, tenant: str) -> None:
    sub = uuid.uuid4()
    enqueue(conn, jobs_for(sub, tenant, [("a", 1), ("a", 2), ("a", 3)]))
    first = head_of(conn, sub, "a")
    end(conn, sub, "a", "dead_lettered", block=True)
    assert key_rows(conn, sub) == {"a": (1, "dead_lettered", True)}
    assert states(conn, sub)[("a", 2)] == "waiting"
    with conn.transaction():
        retried = ordering.run(conn.cursor(), ordering.retry_head(sub, "a"))
    assert retried is not None and retried != first
    assert key_rows(conn, sub) == {"a": (1, "pending", False)}
    with conn.transaction():  # not blocked any more: a second resume does nothing
        assert ordering.run(conn.cursor(), ordering.skip_head(sub, "a")) is None
    end(conn, sub, "a", "dead_lettered", block=True)
    with conn.transaction():
        assert ordering.run(conn.cursor(), ordering.skip_head(sub, "a")) == retried
    assert key_rows(conn, sub) == {"a": (2, "pending", False)}
    [(outcome, detail)] = conn.execute("SELECT outcome, detail FROM delivery_attempts WHERE job_id = %s",
                                       (retried,)).fetchall()
    assert (outcome, detail) == (ordering.SKIP_OUTCOME, ordering.SKIP_DETAIL)


def test_release_makes_every_waiting_job_pending_and_drops_the_keys(conn: psycopg.Connection, tenant: str) -> None:
    sub = uuid.uuid4()
    enqueue(conn, jobs_for(sub, tenant, [("a", 1), ("a", 2), ("b", 3), ("b", 4), ("b", 5)]))
    with conn.transaction():
        assert ordering.run(conn.cursor(), ordering.release(sub)) == 3
    assert set(states(conn, sub).values()) == {"pending"} and key_rows(conn, sub) == {}


def test_the_async_runner_drives_the_same_steps(url: str, conn: psycopg.Connection, tenant: str) -> None:
    sub = uuid.uuid4()
    enqueue(conn, jobs_for(sub, tenant, [("a", 1), ("a", 2)]))
    head = head_of(conn, sub, "a")

    async def settle() -> ordering.Advanced:
        async with await psycopg.AsyncConnection.connect(url) as aconn, aconn.transaction():
            await aconn.execute("UPDATE delivery_jobs SET state = 'delivered' WHERE id = %s", (head,))
            return await ordering.arun(aconn.cursor(), ordering.end_heads([EndedHead(sub, "a", head, False)]))

    assert asyncio.run(settle()) == ordering.Advanced(promoted=1, moved=1, emptied=0)
    assert key_rows(conn, sub) == {"a": (2, "pending", False)}


def test_an_advance_that_waited_for_an_ingest_sees_the_job_it_committed(url: str, conn: psycopg.Connection,
                                                                        tenant: str) -> None:
    """The ingest holds the key's row (its batch is not committed) when the head ends: the settle waits for
    the lock, and its second statement's snapshot, taken after the wait, finds the ingest's waiting job."""
    sub = uuid.uuid4()
    enqueue(conn, jobs_for(sub, tenant, [("a", 1)]))
    head = head_of(conn, sub, "a")
    settled: list[ordering.Advanced] = []
    with psycopg.connect(url) as ingest:
        ordering.run(ingest.cursor(), ordering.enqueue(jobs_for(sub, tenant, [("a", 2)]), priority=0))

        def settle() -> None:
            with psycopg.connect(url) as other, other.transaction():
                other.execute("UPDATE delivery_jobs SET state = 'delivered' WHERE id = %s", (head,))
                settled.append(ordering.run(other.cursor(), ordering.end_heads([EndedHead(sub, "a", head, False)])))

        worker = threading.Thread(target=settle)
        worker.start()
        worker.join(0.5)
        assert worker.is_alive()  # waiting for the key's row
        ingest.commit()
    worker.join(10)
    assert settled == [ordering.Advanced(promoted=1, moved=1, emptied=0)]
    assert key_rows(conn, sub) == {"a": (2, "pending", False)}


def test_an_ingest_that_waited_for_an_emptied_key_makes_a_fresh_head(url: str, conn: psycopg.Connection,
                                                                     tenant: str) -> None:
    """The converse: the settle holds the key's row and deletes it (no job waits); the ingest's upsert,
    which waited for that row, inserts a fresh one and its job is the pending head."""
    sub = uuid.uuid4()
    enqueue(conn, jobs_for(sub, tenant, [("a", 1)]))
    head = head_of(conn, sub, "a")
    pending: list[int] = []
    with psycopg.connect(url) as settle:
        settle.execute("UPDATE delivery_jobs SET state = 'delivered' WHERE id = %s", (head,))
        assert ordering.run(settle.cursor(), ordering.end_heads([EndedHead(sub, "a", head, False)])).emptied == 1

        def ingest() -> None:
            with psycopg.connect(url) as other, other.transaction():
                pending.append(ordering.run(other.cursor(), ordering.enqueue(jobs_for(sub, tenant, [("a", 2)]),
                                                                            priority=0)))

        worker = threading.Thread(target=ingest)
        worker.start()
        worker.join(0.5)
        assert worker.is_alive()
        settle.commit()
    worker.join(10)
    assert pending == [1] and key_rows(conn, sub) == {"a": (2, "pending", False)}

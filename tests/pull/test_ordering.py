"""No reader skips an event that commits late (R-pullEvents-04, -05, -12).

A read acknowledges everything it scanned, so if ``seq`` N+1 could be visible while N was still
uncommitted, a read in between would move the cursor past N and N would never be delivered.
Ingest numbers a tenant's events under the ``tenant_counters`` row lock, held until its batch
commits, so a batch that takes N+1 waits for the batch holding N: commit order is ``seq`` order.
These tests hold a real ``EventStore`` batch open inside its transaction and read meanwhile.
"""

from __future__ import annotations

import threading
from datetime import UTC, datetime, timedelta

import psycopg

from hub.db import libpq_url
from tests.pull.conftest import cursor_of, event
from workers.ingest.matching import SubscriptionCache
from workers.ingest.store import EVENT_COLUMNS, EVENT_TYPES, EventStore, _event_row


class HeldBatch:
    """A real ingest batch stopped just before COMMIT, until ``release()``."""

    def __init__(self, events: list) -> None:
        self.events = events
        self.reached = threading.Event()
        self._release = threading.Event()
        self.error: list[BaseException] = []
        self.thread = threading.Thread(target=self._run, daemon=True)

    def _before_commit(self, _rejected: list) -> None:
        self.reached.set()
        self._release.wait(30)

    def _run(self) -> None:
        store = EventStore(libpq_url(), SubscriptionCache())
        try:
            store.write(self.events, [], self._before_commit)
        except BaseException as exc:  # noqa: BLE001 (reported to the test)
            self.error.append(exc)
        finally:
            store.close()

    def start(self) -> HeldBatch:
        self.thread.start()
        return self

    def allow(self) -> None:
        """Let the batch commit once it gets there (without waiting for it)."""
        self._release.set()

    def release(self) -> None:
        """Let the batch commit and wait until it has."""
        self.allow()
        self.thread.join(30)
        assert not self.thread.is_alive() and not self.error, self.error


def test_a_later_batch_waits_for_the_earlier_seq_to_commit(inbox, tenant):
    """While batch A holds seq N open, batch B (N+1) cannot commit, so a read skips nothing."""
    sub = inbox.subscribe()
    first = HeldBatch([event(tenant, data={"batch": "A"})]).start()
    assert first.reached.wait(10)
    second = HeldBatch([event(tenant, data={"batch": "B"})]).start()
    second.allow()  # B would commit at once if it could take its seq; it must wait for A
    assert not second.reached.wait(0.5), "batch B reached COMMIT while A held the earlier seq"
    assert inbox.page(sub) == {"events": [], "next_cursor": None}
    assert cursor_of(sub) == 0
    first.release()
    second.release()
    page = inbox.page(sub)
    assert [item["payload"] for item in page["events"]] == [{"batch": "A"}, {"batch": "B"}]
    assert [item["seq"] for item in page["events"]] == [first.events[0].seq, first.events[0].seq + 1]


def test_the_same_read_skips_an_event_when_a_writer_bypasses_the_lock(inbox, tenant):
    """The control: the scenario above really detects a skip. A writer that takes N+1 without the
    counter lock commits it while N is pending; the read in between acknowledges N+1, and N, when
    it commits, is never delivered. (This is why ingest must keep the lock.)"""
    sub = inbox.subscribe()
    held = HeldBatch([event(tenant, data={"late": True})]).start()
    assert held.reached.wait(10)
    pending_seq = held.events[0].seq
    bypass = event(tenant, data={"early": True})
    bypass.seq = pending_seq + 1
    # Received an hour later than the held batch: the hourly event-count row the insert adds to
    # (event_counts_hourly) is then not the one the held batch has locked, so it does not wait either.
    with psycopg.connect(libpq_url()) as connection:  # no tenant_counters lock: the seq chosen by hand
        connection.execute(
            f"INSERT INTO event_log ({EVENT_COLUMNS}) VALUES ({', '.join(['%s'] * len(EVENT_TYPES))})",
            _event_row(bypass, datetime.now(UTC) + timedelta(hours=1)))
    assert [item["payload"] for item in inbox.page(sub)["events"]] == [{"early": True}]
    held.release()
    assert inbox.page(sub)["events"] == []  # the late event N is behind the cursor: skipped
    assert cursor_of(sub) == pending_seq + 1


def test_readers_racing_many_writers_see_every_event_once_in_order(inbox, tenant):
    """Four real ingest stores write 40 batches for one tenant while a reader reads throughout.

    The reader's plain reads (no seeks) must return every seq exactly once, ascending, no gap.
    """
    sub = inbox.subscribe()
    batches_per_writer, writers = 10, 4
    failures: list[BaseException] = []

    def write(worker: int) -> None:
        store = EventStore(libpq_url(), SubscriptionCache())
        try:
            for batch in range(batches_per_writer):
                size = 1 + (worker * 7 + batch * 3) % 9
                store.write([event(tenant, data={"w": worker, "b": batch}) for _ in range(size)], [],
                            lambda _rejected: None)
        except BaseException as exc:  # noqa: BLE001 (reported below)
            failures.append(exc)
        finally:
            store.close()

    threads = [threading.Thread(target=write, args=(worker,), daemon=True) for worker in range(writers)]
    for thread in threads:
        thread.start()
    received: list[int] = []
    for _ in range(2000):
        received += inbox.seqs(sub, limit=7)
        if not any(thread.is_alive() for thread in threads):
            break
    for thread in threads:
        thread.join(60)
    assert not failures, failures
    for _ in range(100):
        page = inbox.seqs(sub, limit=500)
        received += page
        if not page:
            break
    expected = sum(1 + (worker * 7 + batch * 3) % 9 for worker in range(writers) for batch in range(batches_per_writer))
    assert received == list(range(1, expected + 1))

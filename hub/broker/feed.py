"""Stored broker events as they commit: one LISTEN connection per API process (E7, E9).

Ingest notifies :data:`STORED_CHANNEL` with the tenant at the COMMIT of a batch holding broker
events. The feed thread then reads that tenant's new projection rows by seq (commit order is seq
order within a tenant, so a per-tenant seq cursor misses nothing). It resolves the publishers
waiting for one of those events (read-your-writes) and hands each frame to the matching live
subscribers without ever waiting for one: a subscriber's buffer is bounded, and one that is full
is marked overrun and closed by its own handler. Publishing never waits for a subscriber.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import threading
from dataclasses import dataclass, field

import orjson
import psycopg
from sqlalchemy import text

from hub.broker.grammar import SEPARATOR
from hub.broker.history import history_item
from hub.broker.projection import STORED_CHANNEL
from hub.dataplane.listener import Notice, listen
from hub.db import get_engine, libpq_url

log = logging.getLogger("hub.broker.feed")

WAKE_SECONDS = 0.5  # without a notification, look anyway this often (a lost connection, a missed notify)
PAGE_ROWS = 1000
NEW_ROWS_SQL = """
SELECT b.seq, e.ce_id, b.topic, b.event_type, e.data::text, b.ts
  FROM broker_events b JOIN event_log e ON e.tenant_id = b.tenant_id AND e.seq = b.seq
 WHERE b.tenant_id = %s AND b.seq > %s ORDER BY b.seq LIMIT %s
"""
LAST_SEQ_SQL = text("SELECT coalesce(max(seq), 0) FROM broker_events WHERE tenant_id = :tenant")


def covers(subscribed: str, topic: str) -> bool:
    """Whether a subscriber of SUBSCRIBED receives an event on TOPIC (the topic or a sub-topic of it)."""
    return topic == subscribed or topic.startswith(subscribed + SEPARATOR)


@dataclass(eq=False)
class Subscriber:
    """One socket's bounded buffer of frames (event id, JSON text), filled from the feed thread."""

    tenant_id: str
    topic: str
    capacity: int
    loop: asyncio.AbstractEventLoop
    frames: asyncio.Queue = field(init=False)
    overrun: asyncio.Event = field(init=False)

    def __post_init__(self) -> None:
        self.frames = asyncio.Queue(maxsize=self.capacity)
        self.overrun = asyncio.Event()

    def offer(self, frames: list[tuple[str, str]]) -> None:
        """Called on the subscriber's loop: queue FRAMES, or mark the subscriber overrun."""
        for frame in frames:
            if self.overrun.is_set():
                return
            try:
                self.frames.put_nowait(frame)
            except asyncio.QueueFull:
                self.overrun.set()


class LiveFeed:
    """The process's feed: subscribers by tenant, a per-tenant seq cursor, one listening thread."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._subscribers: dict[str, set[Subscriber]] = {}
        self._waiters: dict[str, dict[str, tuple[asyncio.AbstractEventLoop, asyncio.Future]]] = {}
        self._interest: dict[str, int] = {}  # subscribers and waiters per tenant: its cursor lives while > 0
        self._cursors: dict[str, int] = {}
        self._thread: threading.Thread | None = None

    def _watch(self, tenant: str) -> None:
        """Count one more interest in TENANT, starting its cursor at its last stored seq (blocking)."""
        self._ensure_thread()
        with self._lock:
            if self._interest.get(tenant, 0) > 0:
                self._interest[tenant] += 1
                return
        with get_engine().connect() as connection:
            last = connection.execute(LAST_SEQ_SQL, {"tenant": tenant}).scalar_one()
        with self._lock:
            self._interest[tenant] = self._interest.get(tenant, 0) + 1
            self._cursors.setdefault(tenant, last)

    def _unwatch(self, tenant: str) -> None:
        """Called with the lock held."""
        self._interest[tenant] -= 1
        if self._interest[tenant] <= 0:
            del self._interest[tenant]
            self._cursors.pop(tenant, None)

    def subscribe(self, subscriber: Subscriber) -> None:
        """Register SUBSCRIBER (blocking): it receives every event of its subtree stored from now on."""
        self._watch(subscriber.tenant_id)
        with self._lock:
            self._subscribers.setdefault(subscriber.tenant_id, set()).add(subscriber)

    def unsubscribe(self, subscriber: Subscriber) -> None:
        with self._lock:
            group = self._subscribers.get(subscriber.tenant_id)
            if group is not None and subscriber in group:
                group.discard(subscriber)
                if not group:
                    del self._subscribers[subscriber.tenant_id]
                self._unwatch(subscriber.tenant_id)

    async def expect(self, tenant: str, event_id: str) -> asyncio.Future:
        """A future resolved when EVENT_ID is stored; register it before the event is produced."""
        with self._lock:
            watched = self._interest.get(tenant, 0) > 0
            if watched:
                self._interest[tenant] += 1
        if not watched:
            await asyncio.to_thread(self._watch, tenant)  # the tenant's cursor starts with a query
        loop = asyncio.get_running_loop()
        future = loop.create_future()
        with self._lock:
            self._waiters.setdefault(tenant, {})[event_id] = (loop, future)
        return future

    def forget(self, tenant: str, event_id: str) -> None:
        """End the wait for EVENT_ID (stored, or given up)."""
        with self._lock:
            waiting = self._waiters.get(tenant)
            if waiting is not None and waiting.pop(event_id, None) is not None:
                if not waiting:
                    del self._waiters[tenant]
                self._unwatch(tenant)

    def _ensure_thread(self) -> None:
        with self._lock:
            if self._thread is None or not self._thread.is_alive():
                self._thread = threading.Thread(target=self._run, name="broker-live-feed", daemon=True)
                self._thread.start()

    def _run(self) -> None:
        """The feed thread: its own event loop, listening for as long as the process lives."""
        asyncio.run(self._listen())

    async def _listen(self) -> None:
        # A database outage only delays frames: the listener reconnects, and the seq cursors lose nothing.
        await listen(STORED_CHANNEL, stop=asyncio.Event(), connect=_connect, on_notice=self._on_notice,
                     poll_seconds=WAKE_SECONDS, on_lost=_connection_lost)

    async def _on_notice(self, notice: Notice, connection: psycopg.AsyncConnection) -> None:
        with self._lock:
            tenants = list(self._interest)
        for tenant in tenants if notice.everything else notice.payloads & set(tenants):
            await self._dispatch(connection, tenant)

    async def _dispatch(self, connection: psycopg.AsyncConnection, tenant: str) -> None:
        """Hand the tenant's newly stored events to its subscribers, oldest first."""
        while True:
            with self._lock:
                cursor = self._cursors.get(tenant)
            if cursor is None:
                return
            # Planned for its own values every time (prepare=False): psycopg prepares a statement run five
            # times, and PostgreSQL then keeps a generic plan; made while the tables were small, that plan
            # went on reading the tenant's whole log for every notification as it grew (issue 39).
            rows = await (await connection.execute(NEW_ROWS_SQL, (tenant, cursor, PAGE_ROWS),
                                                   prepare=False)).fetchall()
            if not rows:
                return
            with self._lock:
                if self._cursors.get(tenant) != cursor:
                    return  # the last subscriber left (and maybe a new one came) meanwhile
                self._cursors[tenant] = rows[-1][0]
                subscribers = list(self._subscribers.get(tenant, ()))
                waiting = self._waiters.get(tenant, {})
                stored = [waiting[row[1]] for row in rows if row[1] in waiting]
            for loop, future in stored:
                with contextlib.suppress(RuntimeError):  # the waiter's loop is closed: nobody waits
                    loop.call_soon_threadsafe(_resolve, future)
            if subscribers:
                self._hand_out(rows, subscribers)
            if len(rows) < PAGE_ROWS:
                return

    @staticmethod
    def _hand_out(rows: list, subscribers: list[Subscriber]) -> None:
        """Each subscriber's frames of ROWS, handed over in one call to its loop (never waited on)."""
        frames = [(row[2], (row[1], orjson.dumps(history_item(*row[1:])).decode())) for row in rows]
        for subscriber in subscribers:
            mine = [frame for topic, frame in frames if covers(subscriber.topic, topic)]
            if mine:
                with contextlib.suppress(RuntimeError):  # its loop is closed: the socket is gone
                    subscriber.loop.call_soon_threadsafe(subscriber.offer, mine)


# The feed's connection runs only NEW_ROWS_SQL: a page of the newest rows, each joined to its event by the
# event log's key. Without sequential scans, hash and merge joins, its plan is an index range of
# broker_events and a key lookup per row, bounded by the page whatever the statistics say; stale ones made
# even a fresh plan hash the tenant's whole log per notification (issue 39, N84).
FEED_OPTIONS = "-c enable_seqscan=off -c enable_hashjoin=off -c enable_mergejoin=off -c jit=off"


async def _connect() -> psycopg.AsyncConnection:
    return await psycopg.AsyncConnection.connect(libpq_url(), autocommit=True, application_name="hub-broker-feed",
                                                 options=FEED_OPTIONS)


def _connection_lost(exc: Exception) -> None:
    log.warning("live feed connection lost; reconnecting", extra={"fields": {"error": type(exc).__name__}})


def _resolve(future: asyncio.Future) -> None:
    if not future.done():
        future.set_result(True)


_feed = LiveFeed()


def live_feed() -> LiveFeed:
    """This process's feed (its thread starts with the first subscriber)."""
    return _feed

"""Concurrent readers of one pull subscription never move its cursor backwards (R-pullEvents-05, -07, -13)."""

from __future__ import annotations

import random
import threading
import time

import httpx

from hub.db import get_engine
from hub.ids import parse_uuid
from hub.pull.service import acknowledge
from tests.pull.conftest import cursor_of, store_many
from devkit.live import live_api

READERS = 4
READS_PER_READER = 40
WRITE_BATCHES = 10


def _reader(base: str, token: str, sub: str, seed: int, seen: set[int], errors: list[str]) -> None:
    """Plain reads mixed with backward seeks, as one real HTTP client."""
    rng = random.Random(seed)
    with httpx.Client(base_url=base, headers={"Authorization": f"Bearer {token}"}, timeout=30) as http:
        for _ in range(READS_PER_READER):
            params = {"subscription_id": sub, "limit": rng.randint(1, 40)}
            if rng.random() < 0.2:
                params["after"] = rng.randint(0, max(seen, default=0))
            response = http.get("/v1/events", params=params)
            if response.status_code != 200:
                errors.append(f"{response.status_code} {response.text}")
                return
            seqs = [item["seq"] for item in response.json()["events"]]
            if seqs != sorted(seqs):
                errors.append(f"out of order: {seqs}")
            seen.update(seqs)


def _watch(sub: str, stop: threading.Event, observed: list[int]) -> None:
    while not stop.is_set():
        value = cursor_of(sub)
        if value is not None:
            observed.append(value)
        time.sleep(0.003)


def test_concurrent_http_readers_never_rewind_the_cursor(inbox, tenant, make_token):
    """R-pullEvents-05, -07: four real HTTP clients (some seeking backwards) while ingest writes.

    A watcher samples the durable cursor throughout; it never decreases. Every stored event is
    returned to some reader (at-least-once: racing readers may both get an event, none is lost).
    """
    sub = inbox.subscribe()
    written = store_many(tenant, 100)
    token = make_token()
    seen: set[int] = set()
    errors: list[str] = []
    observed: list[int] = []
    stop = threading.Event()
    env = {"HUB_RATE_LIMIT_EVENTS": "100000", "HUB_CATALOG_REFRESHER_ENABLED": "false"}
    with live_api(env) as base:
        watcher = threading.Thread(target=_watch, args=(sub, stop, observed), daemon=True)
        readers = [threading.Thread(target=_reader, args=(base, token, sub, seed, seen, errors), daemon=True)
                   for seed in range(READERS)]
        watcher.start()
        for thread in readers:
            thread.start()
        for _ in range(WRITE_BATCHES):
            written += store_many(tenant, 20)
        for thread in readers:
            thread.join(120)
        assert not any(thread.is_alive() for thread in readers), "a reader did not finish"
        with httpx.Client(base_url=base, headers={"Authorization": f"Bearer {token}"}, timeout=30) as http:
            for _ in range(50):  # drain what the readers left
                events = http.get("/v1/events", params={"subscription_id": sub, "limit": 500}).json()["events"]
                seen.update(item["seq"] for item in events)
                if not events:
                    break
        stop.set()
        watcher.join(10)
    assert not errors, errors
    assert len(observed) > 10
    assert all(later >= earlier for earlier, later in zip(observed, observed[1:])), "the cursor moved back"
    assert cursor_of(sub) == max(written)
    assert set(written) <= seen


def test_racing_acknowledgments_keep_the_higher_cursor(inbox, tenant):
    """R-pullEvents-05: a slower read that acknowledges a lower seq after a faster one cannot rewind.

    The higher acknowledgment holds the cursor row uncommitted; the lower one waits on the row lock
    and, once the higher commits, its GREATEST keeps the higher value.
    """
    sub = inbox.subscribe()
    seqs = store_many(tenant, 10)
    sub_id = parse_uuid(sub)
    assert inbox.seqs(sub, limit=1) == seqs[:1]  # the cursor row exists
    lower_done = threading.Event()
    result: list[int] = []

    def lower() -> None:
        with get_engine().begin() as connection:
            result.append(acknowledge(connection, subscription_id=sub_id, tenant_id=tenant, position=seqs[2], seek=0))
        lower_done.set()

    with get_engine().begin() as connection:
        assert acknowledge(connection, subscription_id=sub_id, tenant_id=tenant, position=seqs[8], seek=0) == seqs[8]
        thread = threading.Thread(target=lower, daemon=True)
        thread.start()
        assert not lower_done.wait(0.5), "the lower acknowledgment did not wait for the row lock"
    thread.join(10)
    assert result == [seqs[8]] and cursor_of(sub) == seqs[8]
    with get_engine().begin() as connection:
        assert acknowledge(connection, subscription_id=sub_id, tenant_id=tenant, position=seqs[1], seek=0) == seqs[8]
    assert cursor_of(sub) == seqs[8]


def test_concurrent_first_reads_create_one_cursor(inbox, tenant, make_token):
    """Two first reads at once both succeed; the cursor row is created once (the upsert, no unique error)."""
    sub = inbox.subscribe()
    seqs = store_many(tenant, 5)
    token = make_token()
    workers = 3
    barrier = threading.Barrier(workers)
    statuses: list[int] = []
    env = {"HUB_RATE_LIMIT_EVENTS": "100000", "HUB_CATALOG_REFRESHER_ENABLED": "false"}
    with live_api(env) as base:
        def first_read() -> None:
            with httpx.Client(base_url=base, timeout=30) as http:
                barrier.wait(10)
                statuses.append(http.get("/v1/events", params={"subscription_id": sub},
                                         headers={"Authorization": f"Bearer {token}"}).status_code)

        threads = [threading.Thread(target=first_read, daemon=True) for _ in range(workers)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join(60)
    assert statuses == [200] * workers
    assert cursor_of(sub) == seqs[-1]

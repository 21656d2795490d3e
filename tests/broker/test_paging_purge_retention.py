"""Paging with ``until`` (the seed's ts + 1 advice), purge with counts, and the retention trim."""

from __future__ import annotations

import os
import subprocess
import sys
import time

import psycopg

from hub.backbone.producer import shared_producer
from hub.broker.grammar import parse_topic
from hub.broker.publish import broker_topic, build_record
from hub.broker.sweep import sweep_broker
from hub.db import get_engine, libpq_url
from tests.ingest.conftest import insert_subscription, rows, scalar, wait_until


def produce(tenant: str, items: list[tuple]) -> list[str]:
    """Produce broker events (topic, type, ts[, data]) straight to the backbone; returns their ids."""
    records = [build_record(tenant_id=tenant, topic=parse_topic(item[0]), event_type=item[1],
                            data=item[3] if len(item) > 3 else {"i": i}, ts=item[2]) for i, item in enumerate(items)]
    assert shared_producer().publish(broker_topic(), records).durable
    return [record.event.ce_id for record in records]


def wait_stored(tenant: str, count: int) -> None:
    wait_until(lambda: scalar("SELECT count(*) FROM broker_events WHERE tenant_id = %s", (tenant,)) >= count,
               60, 0.1, f"{count} broker events stored")


def test_until_paging_over_2500_events_sharing_milliseconds(broker, ingest):
    broker.put_config("orders", {"max_events": 10_000, "ttl_seconds": 86_400})
    base = time.time_ns() // 1_000_000 - 60_000
    items = [(f"orders:{i % 37}", "order.shipped", base + i // 5) for i in range(2500)]  # 5 per millisecond
    ids = produce(broker.tenant, items)
    wait_stored(broker.tenant, 2500)
    seen: list[str] = []
    page = broker.history("orders", limit=100)
    while page:
        known = set(seen)
        fresh = [item for item in page if item["id"] not in known]
        if not fresh:
            break
        seen += [item["id"] for item in fresh]
        page = broker.history("orders", limit=100, until=page[-1]["ts"] + 1)
    assert len(seen) == len(set(seen)) == 2500
    assert set(seen) == set(ids)


def test_purge_by_type_since_until_and_subtree_with_counts(broker, ingest):
    base = time.time_ns() // 1_000_000 - 10_000
    produce(broker.tenant, [("chat:room-7", "msg", base), ("chat:room-7", "msg", base + 1),
                            ("chat:room-7:t", "edit", base + 2), ("chat:room-8", "msg", base + 3),
                            ("chat", "msg", base + 4), ("chat:room-70", "msg", base + 5)])
    wait_stored(broker.tenant, 6)
    assert broker.purge("chat:room-7", type="edit") == 1
    assert broker.purge("chat:room-7", since=base + 1, until=base + 2) == 1
    assert broker.purge("chat:room-7") == 1
    assert [e["topic"] for e in broker.history("chat")] == ["chat:room-70", "chat", "chat:room-8"]
    assert broker.purge("chat") == 3
    assert broker.history("chat") == []


def test_max_events_and_the_default_window_trim_history(broker, ingest):
    now = time.time_ns() // 1_000_000
    broker.put_config("small", {"max_events": 3})
    produce(broker.tenant, [("small:a", "t", now - 100 + i) for i in range(5)]
            + [("plain", "t", now - 7_200_000), ("plain", "t", now - 1000)])
    wait_stored(broker.tenant, 7)
    # History shows exactly the window before any sweep.
    assert [e["data"]["i"] for e in broker.history("small")] == [4, 3, 2]
    assert [e["data"]["i"] for e in broker.history("plain")] == [6]  # the default: 3600 s
    sweep_broker(engine=get_engine(), batch_rows=2)
    assert scalar("SELECT count(*) FROM broker_events WHERE tenant_id = %s", (broker.tenant,)) == 4
    assert scalar("SELECT count(*) FROM event_log WHERE tenant_id = %s", (broker.tenant,)) == 4


def test_an_event_a_delivery_still_needs_is_hidden_then_swept_once_delivered(broker, ingest, tenant):
    subscription = insert_subscription(tenant)
    now = time.time_ns() // 1_000_000
    produce(tenant, [("old", "t", now - 7_200_000), ("old", "t", now)])
    wait_stored(tenant, 2)
    [(seq,)] = rows("SELECT seq FROM broker_events WHERE tenant_id = %s AND ts < %s", (tenant, now))
    jobs = scalar("SELECT count(*) FROM delivery_jobs WHERE tenant_id = %s AND event_seq = %s", (tenant, seq))
    assert jobs == 1  # a webhook subscription of every type selects the broker event too (E1)
    assert [e["ts"] for e in broker.history("old")] == [now]  # hidden: outside the window
    sweep_broker(engine=get_engine(), batch_rows=100)
    assert scalar("SELECT count(*) FROM event_log WHERE tenant_id = %s AND seq = %s", (tenant, seq)) == 1
    with psycopg.connect(libpq_url()) as connection:  # the delivery finishes
        connection.execute("UPDATE delivery_jobs SET state = 'delivered' WHERE tenant_id = %s AND subscription_id = %s",
                           (tenant, subscription))
    sweep_broker(engine=get_engine(), batch_rows=100)
    assert scalar("SELECT count(*) FROM event_log WHERE tenant_id = %s AND seq = %s", (tenant, seq)) == 0


def test_the_sweep_loop_trims_by_ttl_at_its_short_interval(broker, ingest):
    """``hub sweep --loop`` with a 0.5 s broker interval deletes what left the ttl window, by itself."""
    broker.put_config("brief", {"ttl_seconds": 2})
    kept_config = broker.put_config("long", {"max_events": 2})
    assert kept_config["max_events"] == 2
    now = time.time_ns() // 1_000_000
    produce(broker.tenant, [("brief:a", "t", now), ("brief", "t", now)] + [("long", "t", now + i) for i in range(4)])
    wait_stored(broker.tenant, 6)
    process = subprocess.Popen([sys.executable, "-m", "workers.cli", "sweep", "--loop"],
                               env={**os.environ, "HUB_BROKER_SWEEP_INTERVAL_SECONDS": "0.5"})
    try:
        count = "SELECT count(*) FROM event_log WHERE tenant_id = %s"
        wait_until(lambda: scalar(count, (broker.tenant,)) == 2, 60, 0.2, "the loop to trim to 2 events")
    finally:
        process.terminate()
        process.wait(15)
    assert broker.history("brief") == []
    assert [e["ts"] for e in broker.history("long")] == [now + 3, now + 2]


def test_purge_ends_the_open_deliveries_of_purged_events_with_a_recorded_outcome(broker, ingest, tenant):
    subscription = insert_subscription(tenant)
    now = time.time_ns() // 1_000_000
    produce(tenant, [("gone", "t", now), ("kept", "t", now)])
    wait_stored(tenant, 2)
    [(seq,)] = rows("SELECT seq FROM broker_events WHERE tenant_id = %s AND main_topic = 'gone'", (tenant,))
    assert broker.purge("gone") == 1
    [(state,)] = rows("SELECT state FROM delivery_jobs WHERE tenant_id = %s AND event_seq = %s", (tenant, seq))
    assert state == "disabled"
    [(outcome, detail)] = rows("SELECT outcome, detail FROM delivery_attempts WHERE tenant_id = %s AND event_seq = %s "
                               "AND subscription_id = %s", (tenant, seq, subscription))
    assert outcome == "disabled" and "purged" in detail
    assert scalar("SELECT count(*) FROM delivery_jobs WHERE tenant_id = %s AND state = 'pending'", (tenant,)) == 1

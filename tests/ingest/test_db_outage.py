"""A PostgreSQL outage mid-flow: the worker pauses and retries, commits nothing early, skips nothing.

The worker runs in-process on the real broker against a scratch PostgreSQL cluster that the test
stops (``pg_ctl -m immediate``) and starts again, as tests/test_ops.py does for /readyz.
"""

from __future__ import annotations

import time
from collections.abc import Iterator

import pytest

from hub.ingest.readiness import ingestion_readiness
from tests.ingest.conftest import (
    binary, cloud_event, ingest_worker, insert_subscription, rows, scalar, stored, structured, wait_until,
)
from devkit.pg import ScratchPostgres
from devkit.scratchdb import hub_database, migrated_scratch_cluster


@pytest.fixture
def scratch_cluster(lane, override_settings) -> Iterator[ScratchPostgres]:
    """A migrated private cluster the hub's settings point at (after the lane's settings)."""
    with migrated_scratch_cluster() as cluster, hub_database(cluster.url, override_settings):
        yield cluster


def test_database_outage_pauses_retries_and_stores_every_event_once(lane, tenant, scratch_cluster):
    """N19, R-getReadiness-01: retry through the outage; after it every event is stored exactly once."""
    subscription = insert_subscription(tenant)
    before = [cloud_event(tenant) for _ in range(5)]
    during = [cloud_event(tenant) for _ in range(6)]
    after = [cloud_event(tenant) for _ in range(3)]

    with ingest_worker() as worker:
        lane.send(*[binary(event) for event in before])
        wait_until(lambda: lane.committed() == 5)
        assert stored(tenant) == 5
        assert worker.status.state == "healthy"

        scratch_cluster.stop()
        lane.send(*[structured(event) for event in during])
        wait_until(lambda: worker.status.state == "degraded", timeout=30)
        assert "PostgreSQL unavailable" in worker.status.detail
        # Several retries of the batch while the database is down: degraded throughout, never
        # "recovered" by an empty poll between two attempts.
        states = set()
        deadline = time.monotonic() + 3
        while time.monotonic() < deadline:
            states.add(worker.status.state)
            time.sleep(0.02)
        assert states == {"degraded"}
        assert lane.committed() == 5, "no offset moves while the batch cannot be stored"

        scratch_cluster.start()
        wait_until(lambda: lane.committed() == 11, timeout=40)
        wait_until(lambda: worker.status.state == "healthy", timeout=10)
        lane.send(*[binary(event) for event in after])
        wait_until(lambda: lane.committed() == 14)
        # The heartbeat the API's ingestion probe reads says the worker is consuming again.
        wait_until(lambda: scalar("SELECT count(*) FROM ingest_worker_heartbeats WHERE worker_id = %s "
                                  "AND state = 'healthy'", (worker.heartbeat.worker_id,)) == 1, timeout=10)
        assert ingestion_readiness().state == "healthy"

    expected = [event.get_attributes()["id"] for event in before + during + after]
    log = rows("SELECT ce_id, seq FROM event_log WHERE tenant_id = %s ORDER BY seq", (tenant,))
    assert [row[0] for row in log] == expected, "every event once, in topic order, none skipped"
    assert [row[1] for row in log] == list(range(1, len(expected) + 1)), "rolled-back batches leave no gaps"
    jobs = rows("SELECT subscription_id::text, event_seq FROM delivery_jobs WHERE tenant_id = %s ORDER BY event_seq",
                (tenant,))
    assert jobs == [(subscription, seq) for seq in range(1, len(expected) + 1)]


def test_heartbeat_reports_degraded_while_a_batch_is_retried(lane, tenant, scratch_cluster, monkeypatch):
    """R-getReadiness-01/02: /readyz's ingestion probe turns degraded while a worker is retrying.

    The database stays up (the heartbeat needs it); the batch fails on the dead-letter produce,
    another transient fault, until the test lets it through.
    """
    from workers.ingest.dlq import DeadLetterPublisher
    from workers.kafka_loop import TransientError

    blocked = {"on": True}
    real_send = DeadLetterPublisher.send

    def flaky_send(self, poisons) -> None:
        if blocked["on"]:
            raise TransientError("dead-letter produce not acknowledged (Kafka broker unavailable)")
        real_send(self, poisons)

    monkeypatch.setattr(DeadLetterPublisher, "send", flaky_send)
    good = cloud_event(tenant)
    poison = binary(cloud_event(tenant))
    lane.send(({k: v for k, v in poison.headers.items() if k != "ce_id"}, None, poison.value), binary(good))
    with ingest_worker():
        probe = wait_until(lambda: (lambda outcome: outcome if outcome.state == "degraded" else None)(
            ingestion_readiness()), timeout=30)
        assert "retrying" in probe.detail
        assert stored(tenant) == 0 and lane.committed() < 0, "the whole batch waits, nothing committed"
        blocked["on"] = False
        wait_until(lambda: lane.committed() == 2)
        wait_until(lambda: ingestion_readiness().state == "healthy", timeout=10)
    assert stored(tenant) == 1
    assert len(lane.dlq_records(2, timeout=5)) == 1, "the poison was quarantined once, after the fault"

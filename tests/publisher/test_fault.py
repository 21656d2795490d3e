"""Kafka down during publishing (N33, E1): a private broker (ScratchKafka, so the shared one and the
other tests are not disturbed) is SIGKILLed while REST and gRPC batches keep coming, then started
again on the same ports and data. What was not durable answers ``success: false`` (or the call is
refused whole with 503 / RESOURCE_EXHAUSTED); every event that answered ``success: true`` is in the
event log exactly once; and the publisher recovers on its own: once the broker is back, batches
succeed again without any process being restarted."""

from __future__ import annotations

import itertools
import subprocess
import threading
import time
import uuid
from collections.abc import Iterator

import grpc
import httpx
import psycopg
import pytest

from tests.publisher.conftest import (
    bearer,
    grpc_server,
    hub_env,
    metadata,
    pb,
    pb_grpc,
    proto_event,
    publisher_token,
)
from devkit.kafka import ScratchKafka
from devkit.live import live_api
from devkit.poll import wait_until
from devkit.processes import start_hub, stop
from devkit.scratchdb import migrated_scratch_database

pytestmark = pytest.mark.slow

BATCH = 20
OCCURRED = "2024-10-16T14:30:00Z"


@pytest.fixture(scope="module")
def broker() -> Iterator[ScratchKafka]:
    kafka = ScratchKafka.create()
    kafka.start()
    try:
        yield kafka
    finally:
        kafka.destroy()


class Publishers:
    """REST and gRPC clients publishing numbered batches in a loop; records each event's answer."""

    def __init__(self, rest: str, grpc_address: str, token: str) -> None:
        self.rest, self.grpc_address, self.token = rest, grpc_address, token
        self.numbers = itertools.count()
        self.answers: dict[int, bool] = {}
        self.refused_calls = 0
        self.lock = threading.Lock()
        self.stopping = threading.Event()

    def _batch(self) -> list[int]:
        with self.lock:
            return [next(self.numbers) for _ in range(BATCH)]

    def _record(self, numbers: list[int], successes: list[bool] | None) -> None:
        with self.lock:
            if successes is None:
                self.refused_calls += 1
            for n, ok in zip(numbers, successes or [False] * len(numbers), strict=True):
                self.answers[n] = ok

    def run_rest(self) -> None:
        with httpx.Client(base_url=self.rest, timeout=60) as client:
            while not self.stopping.is_set():
                numbers = self._batch()
                events = [{"event_type": "fault.test", "message": {"n": n}, "occurred_at": OCCURRED} for n in numbers]
                response = client.post("/api/v1beta/events/batch", json={"events": events}, headers=bearer(self.token))
                assert response.status_code in (200, 503), response.text
                self._record(numbers, [r["success"] for r in response.json()["results"]]
                             if response.status_code == 200 else None)
                time.sleep(0.1)

    def run_grpc(self) -> None:
        with grpc.insecure_channel(self.grpc_address) as channel:
            stub = pb_grpc.EventPublishingServiceStub(channel)
            while not self.stopping.is_set():
                numbers = self._batch()
                request = pb.BatchPublishEventsRequest(events=[proto_event("fault.test", {"n": n}, OCCURRED)
                                                               for n in numbers])
                try:
                    response = stub.BatchPublishEvents(request, metadata=metadata(self.token), timeout=60)
                    self._record(numbers, [r.success for r in response.results])
                except grpc.RpcError as exc:
                    assert exc.code() == grpc.StatusCode.RESOURCE_EXHAUSTED, exc
                    self._record(numbers, None)
                time.sleep(0.1)

    def successes_since(self, first: int) -> int:
        with self.lock:
            return sum(1 for n, ok in self.answers.items() if ok and n >= first)

    def next_number(self) -> int:
        with self.lock:
            return max(self.answers, default=-1) + 1


def stored_numbers(db: str, tenant: str) -> list[int]:
    with psycopg.connect(db, autocommit=True) as conn:
        return [row[0] for row in conn.execute(
            "SELECT (data->>'n')::int FROM event_log WHERE tenant_id = %s", (tenant,)).fetchall()]


def test_kafka_down_during_batches(broker: ScratchKafka, tenant: str) -> None:
    with migrated_scratch_database() as db_url:
        env = hub_env(db_url, f"p{uuid.uuid4().hex[:10]}.", HUB_KAFKA_BOOTSTRAP=broker.bootstrap,
                      HUB_PUBLISHER_ACK_TIMEOUT_SECONDS="3", HUB_PUBLISHER_MAX_INFLIGHT_EVENTS="200")
        ingest = start_hub("ingest", env, stderr=subprocess.DEVNULL)
        try:
            with live_api(env) as rest, grpc_server(env) as address:
                publishers = Publishers(rest, address, publisher_token(tenant))
                threads = [threading.Thread(target=target, daemon=True)
                           for target in (publishers.run_rest, publishers.run_grpc, publishers.run_rest)]
                for thread in threads:
                    thread.start()
                wait_until(lambda: publishers.successes_since(0) >= 200, 60, 0.2, "successes before the outage")
                broker.stop(kill=True)
                outage_start = publishers.next_number()
                time.sleep(8)
                broker.start()
                back = publishers.next_number()
                wait_until(lambda: publishers.successes_since(back) >= 200, 120, 0.5,
                           "successes after the broker returned")
                publishers.stopping.set()
                for thread in threads:
                    thread.join(timeout=90)
            answers = dict(publishers.answers)
            failed_in_outage = [n for n, ok in answers.items() if not ok and outage_start <= n < back]
            assert failed_in_outage or publishers.refused_calls, "the outage never showed in an answer"
            succeeded = {n for n, ok in answers.items() if ok}
            db = db_url.replace("postgresql+psycopg://", "postgresql://", 1)
            wait_until(lambda: succeeded <= set(stored_numbers(db, tenant)), 120, 0.5, "every success stored")
            stored = stored_numbers(db, tenant)
            assert len(stored) == len(set(stored)), "an event was stored twice"
            assert set(stored) <= set(answers), "an event nobody published was stored"
        finally:
            stop(ingest)

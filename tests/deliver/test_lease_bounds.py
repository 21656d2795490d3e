"""A batch's sends keep within half its lease, and a try its lease lost still leaves a trace (N105, N108).

- A sender waits for a slot and works at most until half the lease, even when the host wait is longer.
- A send its sink could not begin by then goes back untried: no attempt, no retry budget spent.
- A try whose record the lease refuses (the job was claimed again) writes its attempt row, the job untouched:
  its real outcome (never one that ends the job), the worker and the lease in its detail.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from typing import ClassVar

from devkit.receiver import Reply, https_receiver
from hub.sinks.base import NOT_STARTED, START_BY, AttemptResult, PreparedDelivery
from hub.sinks.vocabulary import SinkKind
from tests.deliver.conftest import attempts, insert_events, insert_subscription, one_batch, sql
from tests.sinks.conftest import HOOK_HOST


def _jobs(url: str, tenant: str) -> list[tuple]:
    return sql(url, "SELECT state, attempts, count(*) FROM delivery_jobs WHERE tenant_id = %s "
                    "GROUP BY state, attempts ORDER BY state", (tenant,))


def test_a_sender_stops_at_half_the_lease_when_the_host_wait_is_longer(deliver_db: str, ca, tenant: str,
                                                                       override_settings) -> None:
    """Lease 2 s, host wait 5 s, one slot, 0.4 s a request: the sender begins tries until 1 s only (today's
    sender went on to the 5 s host wait, past the lease, and the batch's record was refused)."""
    override_settings(deliver_lease_seconds="2", deliver_host_wait_seconds="5", deliver_per_host_concurrency="1")
    requests = []

    def answer(_item: object) -> tuple[str, float]:
        requests.append(time.monotonic())
        return ("sleep", 0.4)

    with https_receiver(ca, (HOOK_HOST,), answer) as receiver:
        sub, _ = insert_subscription(deliver_db, tenant, f"https://{HOOK_HOST}:{receiver.port}/h")
        insert_events(deliver_db, tenant, [sub], 10)
        assert one_batch() == 10
    tried = len(requests)
    assert 1 <= tried <= 4 and requests[-1] - requests[0] < 1.0, "no try began after half the lease"
    assert _jobs(deliver_db, tenant) == [("delivered", 1, tried), ("pending", 0, 10 - tried)], \
        "the tries were recorded, the rest went back untried"
    assert len(attempts(deliver_db, tenant)) == tried


class NeverStarted:
    """A webhook sink whose calls wait behind others past their ``START_BY`` (as an AWS call queued on the
    sink's threads): it notes the bound it was given and sends nothing."""

    kind: ClassVar[SinkKind] = SinkKind.webhook
    batch_size: ClassVar[int] = 1

    def __init__(self) -> None:
        self.bounds: list[float] = []

    async def deliver(self, delivery: PreparedDelivery) -> AttemptResult:
        self.bounds.append(START_BY.get() - time.monotonic())
        return NOT_STARTED

    async def deliver_many(self, deliveries: list[PreparedDelivery]) -> list[AttemptResult]:
        return [await self.deliver(delivery) for delivery in deliveries]

    async def close(self) -> None:
        pass


def test_a_send_not_started_in_time_goes_back_untried(deliver_db: str, tenant: str,
                                                      override_settings) -> None:
    """The engine bounds each try by half the lease (``START_BY``), and a send its sink did not begin by then
    goes back as a job left queued does: pending, no attempt, no budget spent, due again soon."""
    override_settings(deliver_lease_seconds="8")
    sink = NeverStarted()

    sub, _ = insert_subscription(deliver_db, tenant, f"https://{HOOK_HOST}:9/h")
    insert_events(deliver_db, tenant, [sub], 3)
    assert one_batch(lambda engine: engine.sinks._sinks.__setitem__(SinkKind.webhook.value, sink)) == 3
    assert len(sink.bounds) == 3 and all(3.0 < bound <= 4.0 for bound in sink.bounds), "half the lease ahead"
    assert _jobs(deliver_db, tenant) == [("pending", 0, 3)]
    assert attempts(deliver_db, tenant) == []
    [(later, unleased)] = sql(deliver_db, "SELECT bool_and(next_attempt_at > now()), bool_and(lease_until IS NULL) "
                                          "FROM delivery_jobs WHERE tenant_id = %s", (tenant,))
    assert later and unleased


def test_a_try_whose_lease_was_lost_leaves_its_attempt_row(deliver_db: str, ca, tenant: str) -> None:
    """Each request moves its job's lease on (as another worker's claim would): the record refuses the batch,
    yet each try's attempt row is written with what it did, the worker and the lease; a 410 that would
    dead-letter the job is written ``failed`` (the job is not ended); the jobs stay as the other claim has them."""
    moved = threading.Lock()

    def reclaimed(status: int) -> Callable[[object], Reply]:
        def answer(_item: object) -> Reply:
            with moved:
                sql(deliver_db, "UPDATE delivery_jobs SET lease_until = lease_until + interval '1 minute' "
                                "WHERE tenant_id = %s AND lease_until IS NOT NULL", (tenant,))
            return Reply(status=status)
        return answer

    with https_receiver(ca, (HOOK_HOST,), reclaimed(200)) as ok, \
            https_receiver(ca, (HOOK_HOST,), reclaimed(410)) as gone:
        delivered, _ = insert_subscription(deliver_db, tenant, f"https://{HOOK_HOST}:{ok.port}/h")
        refused, _ = insert_subscription(deliver_db, tenant, f"https://{HOOK_HOST}:{gone.port}/h")
        insert_events(deliver_db, tenant, [delivered, refused], 2)
        assert one_batch() == 4
    assert _jobs(deliver_db, tenant) == [("pending", 0, 4)], "the jobs are the other claim's, untouched"
    rows = attempts(deliver_db, tenant)
    assert sorted((row["outcome"], row["status_code"], row["attempt_no"]) for row in rows) == \
        [("delivered", 200, 1)] * 2 + [("failed", 410, 1)] * 2
    assert all(row["detail"].startswith("not recorded: lease until ") and " of worker deliver-" in row["detail"]
               for row in rows)
    [(sent,)] = sql(deliver_db, "SELECT count(DISTINCT job_id) FROM delivery_attempts WHERE tenant_id = %s", (tenant,))
    assert sent == 4, "one row per send"

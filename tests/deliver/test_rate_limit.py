"""Rate limits per destination (N56) through the real engine: waits spend no retry budget, and three
real ``hub deliver`` processes together keep a 50/s subscription at 50/s at the receiver while
another subscription on the same workers and the same receiver runs unthrottled.

The window checked at the receiver is a sliding one: every 1 s span [t, t + 1) starting at an
arrival. The tolerance is 10 % (at most 55 arrivals for a 50/s limit): the slots themselves never
put more than 50 in a second; a send may go out up to ``GRACE`` (25 ms) after its slot, which allows
50 × 1.025 + 1 = 52, and the rest covers the jitter between the send and the receiver's clock (a
Python receiver on two loaded cores).
"""

from __future__ import annotations

import threading
import time
from collections import Counter

from tests.deliver.conftest import hook_url, insert_events, insert_subscription, one_batch, sql
from devkit.dnsserver import DnsServer
from devkit.pg import free_port
from devkit.processes import start_hub, stop
from devkit.receiver import Received, Reply, https_receiver

LIMIT = 50
TOLERANCE = 5  # 10 % of LIMIT; see the module docstring
EVENTS = 400
WORKERS = 3



class Arrivals:
    """Records when each request reached the receiver, by path, and its webhook-id."""

    def __init__(self) -> None:
        self.lock = threading.Lock()
        self.times: dict[str, list[float]] = {}
        self.ids: dict[str, Counter[str]] = {}

    def __call__(self, item: Received) -> Reply:
        now = time.monotonic()
        with self.lock:
            self.times.setdefault(item.path, []).append(now)
            self.ids.setdefault(item.path, Counter())[item.headers["webhook-id"]] += 1
        return Reply()

    def snapshot(self, path: str) -> tuple[list[float], Counter[str]]:
        with self.lock:
            return sorted(self.times.get(path, [])), Counter(self.ids.get(path, Counter()))


def busiest_second(times: list[float]) -> int:
    """The most arrivals in any sliding window [t, t + 1) that starts at an arrival."""
    most, end = 0, 0
    for start, value in enumerate(times):
        while end < len(times) and times[end] < value + 1.0:
            end += 1
        most = max(most, end - start)
    return most


def limit(url: str, sub_id: object, rate: int) -> None:
    sql(url, "UPDATE subscriptions SET rate_limit_per_second = %s WHERE id = %s", (rate, sub_id))


def test_jobs_above_the_rate_wait_without_spending_retries(deliver_db: str, ca, tenant: str) -> None:  # noqa: ANN001
    """One batch of five jobs at 1/s: one is sent, four go back pending with no attempt and a later due time."""
    arrivals = Arrivals()
    with https_receiver(ca, ("hooks.example.test",), arrivals) as receiver:
        sub_id, _ = insert_subscription(deliver_db, tenant, hook_url(receiver))
        limit(deliver_db, sub_id, 1)
        insert_events(deliver_db, tenant, [sub_id], 5)
        assert one_batch() == 5
        assert one_batch() == 0, "the waiting jobs are not due again at once"
    jobs = sql(deliver_db, """SELECT state, attempts, next_attempt_at > now(), lease_until IS NULL, next_attempt_at
                                FROM delivery_jobs WHERE subscription_id = %s ORDER BY next_attempt_at""", (sub_id,))
    assert [row[:2] for row in jobs] == [("delivered", 1)] + [("pending", 0)] * 4
    assert all(later and unleased for _, _, later, unleased, _ in jobs[1:])
    waits = [row[4] for row in jobs[1:]]
    assert all((b - a).total_seconds() > 0.9 for a, b in zip(waits, waits[1:])), "the waiting jobs come back spread"
    [(rows,)] = sql(deliver_db, "SELECT count(*) FROM delivery_attempts WHERE subscription_id = %s", (sub_id,))
    assert rows == 1 and len(arrivals.snapshot("/hooks")[0]) == 1
    [(slot_ahead,)] = sql(deliver_db, "SELECT next_slot > now() FROM delivery_pacing WHERE subscription_id = %s",
                          (sub_id,))
    assert slot_ahead


def test_three_workers_keep_a_50_per_second_limit_while_another_subscription_runs_unthrottled(
        deliver_db: str, scratch_url: str, ca, ca_bundle, hook_dns: DnsServer, tenant: str) -> None:  # noqa: ANN001
    arrivals = Arrivals()
    with https_receiver(ca, ("hooks.example.test",), arrivals) as receiver:
        limited, _ = insert_subscription(deliver_db, tenant, hook_url(receiver) + "/limited")
        free, _ = insert_subscription(deliver_db, tenant, hook_url(receiver) + "/free")
        limit(deliver_db, limited, LIMIT)
        insert_events(deliver_db, tenant, [limited, free], EVENTS)
        env = {"HUB_DATABASE_URL": scratch_url, "HUB_DNS_NAMESERVERS": hook_dns.address,
               "HUB_EGRESS_ALLOW_CIDRS": "127.0.0.0/8", "HUB_WEBHOOK_CA_BUNDLE": str(ca_bundle),
               "HUB_DELIVER_BATCH_SIZE": "100", "HUB_DELIVER_LEASE_SECONDS": "20", "HUB_LOG_LEVEL": "WARNING"}
        workers = [start_hub("deliver", {**env, "HUB_DELIVER_METRICS_PORT": str(free_port())}) for _ in range(WORKERS)]
        try:
            deadline = time.monotonic() + 120
            while sql(deliver_db, "SELECT count(*) FROM delivery_jobs WHERE tenant_id = %s AND state <> 'delivered'",
                      (tenant,)) != [(0,)]:
                assert time.monotonic() < deadline, "the jobs were not all delivered in time"
                assert all(worker.poll() is None for worker in workers), "a delivery worker died"
                time.sleep(0.5)
        finally:
            for worker in workers:
                stop(worker)
    limited_times, limited_ids = arrivals.snapshot("/hooks/limited")
    free_times, free_ids = arrivals.snapshot("/hooks/free")
    job_ids = {str(row[0]) for row in sql(deliver_db, "SELECT id FROM delivery_jobs WHERE subscription_id = %s",
                                          (limited,))}
    assert set(limited_ids) == job_ids and len(free_ids) == EVENTS, "every job reached the receiver"
    busiest = busiest_second(limited_times)
    first = min(limited_times[0], free_times[0])
    print(f"\nrate limit: {len(limited_times)} limited requests over {limited_times[-1] - limited_times[0]:.2f} s, "
          f"busiest second {busiest} (limit {LIMIT} + {TOLERANCE}); unthrottled done after "
          f"{free_times[-1] - first:.2f} s; duplicates {sum(limited_ids.values()) - len(limited_ids)}")
    assert busiest <= LIMIT + TOLERANCE
    assert free_times[-1] - first < (limited_times[-1] - first) / 2, "the other subscription was held back"
    [(tries,)] = sql(deliver_db, "SELECT max(attempt_no) FROM delivery_attempts WHERE subscription_id = %s",
                     (limited,))
    assert tries == 1, "waiting for a slot spent no retry budget"

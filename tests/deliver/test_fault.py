"""Fault test: real `hub deliver` processes, a receiver that fails and resets, and kill -9 at random moments.

Every job must end in exactly one terminal outcome (the sum of outcomes equals the jobs created),
each job's state must be that outcome, and every delivered job must have been answered 200 by the
receiver at least once. The duplicate count (extra 200s for one webhook-id) is printed.

Scale: ``HUB_FAULT_EVENTS`` events (default 20,000), each for ``HUB_FAULT_FANOUT`` of the 50
subscriptions (default 1, rotating over all 50), so 20,000 jobs by default. Every kill must land
while jobs are still open.
"""

from __future__ import annotations

import os
import random
import signal
import threading
import time
import uuid
from collections import Counter

import httpx
import pytest

from tests.deliver.conftest import copy_due_jobs, hook_url, insert_subscription, sql
from devkit.dnsserver import DnsServer
from devkit.pg import free_port
from devkit.processes import start_hub, stop
from devkit.receiver import Received, Reply, https_receiver

SUBSCRIPTIONS = 50
EVENTS = int(os.environ.get("HUB_FAULT_EVENTS", "20000"))
FANOUT = int(os.environ.get("HUB_FAULT_FANOUT", "1"))
KILLS = 5
WORKERS = 2


def seed_jobs(url: str, tenant: str, subscriptions: list[uuid.UUID]) -> int:
    """EVENTS events in the log and FANOUT jobs per event, written with COPY."""
    return copy_due_jobs(url, tenant, subscriptions, events=EVENTS, fanout=FANOUT)


class FlakyScript:
    """30 % of requests answered 500 and 5 % of connections reset, at random; records every 200."""

    def __init__(self, seed: int) -> None:
        self.rng = random.Random(seed)
        self.lock = threading.Lock()
        self.answered_ok: Counter[str] = Counter()

    def __call__(self, item: Received) -> object:
        with self.lock:
            roll = self.rng.random()
            if roll < 0.05:
                return "reset"
            if roll < 0.35:
                return Reply(500)
            self.answered_ok[item.headers["webhook-id"]] += 1
        return Reply(200)


def wait_in_flight(port: int, *, timeout: float) -> bool:
    """Wait until the worker behind ``port`` reports requests in flight."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        try:
            text = httpx.get(f"http://127.0.0.1:{port}/metrics", timeout=1).text
        except httpx.HTTPError:
            time.sleep(0.2)
            continue
        for line in text.splitlines():
            if line.startswith("streaming_hub_delivery_in_flight ") and float(line.split()[1]) > 0:
                return True
        time.sleep(0.05)
    return False


def outcome_counts(url: str, tenant: str) -> dict[str, int]:
    return dict(sql(url, "SELECT state, count(*) FROM delivery_jobs WHERE tenant_id = %s GROUP BY state", (tenant,)))


@pytest.mark.slow
def test_kill_nine_loses_nothing(deliver_db: str, scratch_url: str, ca, ca_bundle, hook_dns: DnsServer,  # noqa: ANN001
                                 tenant: str) -> None:
    script = FlakyScript(seed=int(time.time()))
    with https_receiver(ca, ("hooks.example.test",), script) as receiver:
        subscriptions = [insert_subscription(deliver_db, tenant, hook_url(receiver) + f"/{i}")[0]
                         for i in range(SUBSCRIPTIONS)]
        jobs = seed_jobs(deliver_db, tenant, subscriptions)
        env = {"HUB_DATABASE_URL": scratch_url, "HUB_DNS_NAMESERVERS": hook_dns.address,
               "HUB_EGRESS_ALLOW_CIDRS": "127.0.0.0/8", "HUB_WEBHOOK_CA_BUNDLE": str(ca_bundle),
               "HUB_DELIVER_RETRY_LADDER_SECONDS": ",".join(["0.3"] * 8), "HUB_DELIVER_RETRY_JITTER": "0.2",
               "HUB_DELIVER_LEASE_SECONDS": "3", "HUB_DELIVER_BATCH_SIZE": "200", "HUB_DELIVER_PIPELINES": "2",
               "HUB_DELIVER_IDLE_POLL_SECONDS": "0.05", "HUB_LOG_LEVEL": "WARNING"}
        ports = [free_port() for _ in range(WORKERS)]
        spawn = lambda i: start_hub("deliver", {**env, "HUB_DELIVER_METRICS_PORT": str(ports[i])})  # noqa: E731
        workers = [spawn(i) for i in range(WORKERS)]
        rng = random.Random()
        kills = 0
        try:
            while kills < KILLS:
                victim = rng.randrange(WORKERS)
                # A random moment while the victim has requests in flight (it may have answers not yet recorded).
                assert wait_in_flight(ports[victim], timeout=60), "the work ended before every kill landed"
                time.sleep(rng.uniform(0.0, 0.3))
                workers[victim].send_signal(signal.SIGKILL)
                workers[victim].wait(timeout=10)
                kills += 1
                workers[victim] = spawn(victim)
            deadline = time.monotonic() + 150 + jobs / 100  # generous: the receiver is a Python server
            while set(outcome_counts(deliver_db, tenant)) - {"delivered", "dead_lettered", "disabled"}:
                assert time.monotonic() < deadline, outcome_counts(deliver_db, tenant)
                assert all(w.poll() is None for w in workers), "a delivery worker died on its own"
                time.sleep(0.5)
        finally:
            for worker in workers:
                if worker.poll() is None:
                    stop(worker)
                else:
                    worker.wait()

        terminal = sql(deliver_db, """
            SELECT j.id::text, j.state, count(a.id) FILTER (WHERE a.outcome IN ('delivered', 'dead_lettered', 'disabled')),
                   array_agg(a.outcome) FILTER (WHERE a.outcome IN ('delivered', 'dead_lettered', 'disabled'))
              FROM delivery_jobs j LEFT JOIN delivery_attempts a ON a.job_id = j.id
             WHERE j.tenant_id = %s GROUP BY j.id, j.state""", (tenant,))
    assert len(terminal) == jobs
    assert all(count == 1 for _, _, count, _ in terminal), [row for row in terminal if row[2] != 1][:5]
    assert all(outcomes == [state] for _, state, _, outcomes in terminal)
    by_outcome = Counter(state for _, state, _, _ in terminal)
    assert sum(by_outcome.values()) == jobs
    delivered = {job_id for job_id, state, _, _ in terminal if state == "delivered"}
    missing = delivered - set(script.answered_ok)
    assert not missing, f"{len(missing)} delivered jobs never reached the receiver"
    duplicates = sum(count - 1 for count in script.answered_ok.values())
    requests = len(receiver.received)
    print(f"\nfault test: {EVENTS} events, {jobs} jobs over {SUBSCRIPTIONS} subscriptions, {KILLS} kill -9, "
          f"{requests} requests; outcomes {dict(by_outcome)}; duplicates (extra 200s) {duplicates}")
    assert by_outcome["delivered"] > 0.99 * jobs
    assert duplicates > 0  # the kills landed mid-batch, so some answered requests were sent again

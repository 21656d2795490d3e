"""A PostgreSQL restart mid-run: `hub deliver` rides it out, reconnects and loses nothing.

Real `hub deliver` processes deliver a few thousand due webhook jobs to a real HTTPS receiver on
loopback, from a private PostgreSQL cluster that the test shuts down (``pg_ctl -m fast``) while
jobs are in flight, keeps down for a few seconds and starts again on the same port and data
folder. Afterwards every job has exactly one terminal outcome, the outcomes add up to the jobs
created, every delivered job reached the receiver at least once (the duplicate count is printed),
and the very same worker processes are still running and leave cleanly on SIGTERM.
"""

from __future__ import annotations

import signal
import subprocess
import threading
import time
from collections import Counter
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.deliver.conftest import TERMINAL, copy_due_jobs, hook_url, insert_subscription, sql
from devkit.dnsserver import DnsServer
from devkit.pg import ScratchPostgres
from devkit.processes import start_hub, stop
from devkit.receiver import Received, Reply, https_receiver
from devkit.scratchdb import migrated_scratch_cluster

SUBSCRIPTIONS = 3
EVENTS = 1_000  # one job per (event, subscription): 3,000 jobs
WORKERS = 2
OUTAGE_SECONDS = 4.0
FINISH_SECONDS = 60.0


@pytest.fixture
def outage_cluster() -> Iterator[ScratchPostgres]:
    """A private cluster migrated with `hub migrate`, for this test alone to stop and start."""
    with migrated_scratch_cluster() as cluster:
        yield cluster


def libpq(cluster: ScratchPostgres) -> str:
    return cluster.url.replace("postgresql+psycopg://", "postgresql://", 1)


class CountingScript:
    """Answers every request 200 and counts the answers per webhook-id (the delivery job's id)."""

    def __init__(self) -> None:
        self.lock = threading.Lock()
        self.answered_ok: Counter[str] = Counter()

    def __call__(self, item: Received) -> Reply:
        with self.lock:
            self.answered_ok[item.headers["webhook-id"]] += 1
        return Reply(200)


def delivered_count(url: str, tenant: str) -> int:
    [(count,)] = sql(url, "SELECT count(*) FROM delivery_jobs WHERE tenant_id = %s AND state = 'delivered'",
                     (tenant,))
    return count


def open_states(url: str, tenant: str) -> set[str]:
    states = {state for state, in sql(url, "SELECT DISTINCT state FROM delivery_jobs WHERE tenant_id = %s",
                                      (tenant,))}
    return states - TERMINAL


def deliver_connections(url: str) -> int:
    [(count,)] = sql(url, "SELECT count(*) FROM pg_stat_activity WHERE application_name = 'hub-deliver'")
    return count


def wait_for(condition, *, timeout: float, what: str, workers: list[subprocess.Popen]) -> None:  # noqa: ANN001
    """Poll ``condition`` every 50 ms; fail when it takes longer than ``timeout`` or a worker died."""
    deadline = time.monotonic() + timeout
    while not condition():
        assert all(worker.poll() is None for worker in workers), "a delivery worker exited on its own"
        assert time.monotonic() < deadline, f"timed out waiting for {what}"
        time.sleep(0.05)


def test_postgres_restart_mid_run_loses_nothing(outage_cluster: ScratchPostgres, ca, ca_bundle,  # noqa: ANN001
                                                hook_dns: DnsServer, tenant: str, tmp_path: Path) -> None:
    """A fast shutdown of PostgreSQL under load, a few seconds down, a start on the same port and data.

    Every delivery job ends in exactly one recorded outcome and its state is that outcome; the
    outcomes add up to the jobs created; every delivered job reached the receiver; the workers
    reconnected by themselves (same processes, no supervisor) and exit 0 on SIGTERM.
    """
    url = libpq(outage_cluster)
    script = CountingScript()
    with https_receiver(ca, ("hooks.example.test",), script) as receiver:
        subscriptions = [insert_subscription(url, tenant, hook_url(receiver) + f"/{i}")[0]
                         for i in range(SUBSCRIPTIONS)]
        jobs = copy_due_jobs(url, tenant, subscriptions, events=EVENTS, fanout=SUBSCRIPTIONS)
        env = {"HUB_DATABASE_URL": outage_cluster.url, "HUB_DNS_NAMESERVERS": hook_dns.address,
               "HUB_EGRESS_ALLOW_CIDRS": "127.0.0.0/8", "HUB_WEBHOOK_CA_BUNDLE": str(ca_bundle),
               "HUB_DELIVER_RETRY_LADDER_SECONDS": "0.3,0.3,0.3", "HUB_DELIVER_RETRY_JITTER": "0",
               "HUB_DELIVER_LEASE_SECONDS": "3", "HUB_DELIVER_BATCH_SIZE": "100", "HUB_DELIVER_PIPELINES": "2",
               "HUB_DELIVER_IDLE_POLL_SECONDS": "0.05", "HUB_DELIVER_METRICS_PORT": "0", "HUB_LOG_LEVEL": "WARNING"}
        logs = [open(tmp_path / f"deliver-{i}.log", "wb") for i in range(WORKERS)]  # noqa: SIM115
        workers = [start_hub("deliver", env, stderr=log) for log in logs]  # type: ignore[arg-type]
        pids = [worker.pid for worker in workers]
        try:
            # Down while the workers are busy: some jobs delivered, most still open.
            wait_for(lambda: delivered_count(url, tenant) >= jobs // 10, timeout=30, what="the first deliveries",
                     workers=workers)
            outage_cluster.stop(mode="fast")
            before_outage = len(script.answered_ok)
            assert before_outage < jobs, "every job was answered before the outage; nothing was in flight"
            down_until = time.monotonic() + OUTAGE_SECONDS
            while time.monotonic() < down_until:
                assert all(worker.poll() is None for worker in workers), "a worker exited while PostgreSQL was down"
                time.sleep(0.1)
            outage_cluster.start()

            wait_for(lambda: not open_states(url, tenant), timeout=FINISH_SECONDS, what="every job to end",
                     workers=workers)
            assert [worker.pid for worker in workers] == pids
            assert deliver_connections(url) > 0, "the workers did not reconnect"
        finally:
            for worker in workers:
                if worker.poll() is None:
                    worker.send_signal(signal.SIGTERM)
            exits = []
            for worker in workers:
                try:
                    exits.append(worker.wait(timeout=20))
                except subprocess.TimeoutExpired:
                    stop(worker, timeout=1)
                    exits.append(None)
            for log in logs:
                log.close()

        terminal = sql(url, """
            SELECT j.id::text, j.state,
                   count(a.id) FILTER (WHERE a.outcome IN ('delivered', 'dead_lettered', 'disabled')),
                   array_agg(a.outcome) FILTER (WHERE a.outcome IN ('delivered', 'dead_lettered', 'disabled'))
              FROM delivery_jobs j LEFT JOIN delivery_attempts a ON a.job_id = j.id
             WHERE j.tenant_id = %s GROUP BY j.id, j.state""", (tenant,))
        requests = len(receiver.received)
    worker_logs = "\n".join((tmp_path / f"deliver-{i}.log").read_text(errors="replace")[-1500:]
                            for i in range(WORKERS))
    assert exits == [0] * WORKERS, f"exit codes {exits}; logs:\n{worker_logs}"
    assert len(terminal) == jobs
    assert all(count == 1 for _, _, count, _ in terminal), [row for row in terminal if row[2] != 1][:5]
    assert all(outcomes == [state] for _, state, _, outcomes in terminal)
    by_outcome = Counter(state for _, state, _, _ in terminal)
    assert sum(by_outcome.values()) == jobs
    assert by_outcome == {"delivered": jobs}, by_outcome  # the receiver answered every request 200
    delivered = {job_id for job_id, state, _, _ in terminal if state == "delivered"}
    missing = delivered - set(script.answered_ok)
    assert not missing, f"{len(missing)} delivered jobs never reached the receiver"
    duplicates = sum(count - 1 for count in script.answered_ok.values())
    print(f"\ndatabase outage test: {jobs} jobs, {WORKERS} workers, PostgreSQL down {OUTAGE_SECONDS:.0f} s after "
          f"{before_outage} jobs answered; {requests} requests; outcomes {dict(by_outcome)}; "
          f"duplicates (extra 200s) {duplicates}")

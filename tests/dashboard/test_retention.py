"""The retention sweep: batched deletes past the horizon, a truthful coverage_start, one sweeper at a time."""

from __future__ import annotations

import subprocess
import sys
from datetime import datetime, timedelta

import psycopg
from prometheus_client import REGISTRY
from sqlalchemy import text

from hub.db import get_engine, libpq_url
from hub.retention.service import SWEEP_LOCK_KEY, sweep_once, uuid7_floor
from hub.sinks.vocabulary import Outcome
from tests.dashboard.conftest import read_coverage, webhook
from devkit.deliveries import add_event, add_job, hours_ago, now, record_attempt

DAY = 24


def _count(sql: str, **params) -> int:
    with get_engine().connect() as connection:
        return connection.execute(text(sql), params).scalar_one()


def _deleted_metric(table: str) -> float:
    return REGISTRY.get_sample_value("streaming_hub_retention_rows_deleted_total", {"table": table}) or 0.0


def test_sweep_deletes_past_the_horizon_in_batches_and_moves_coverage(api, tenant, coverage):
    """Old events, finished jobs and attempts go; recent rows and unfinished jobs stay; coverage moves first."""
    sub_id = webhook(api)
    old, recent = hours_ago(40 * DAY), hours_ago(2)
    old_seqs = [add_event(tenant, received_at=old) for _ in range(7)]
    recent_seq = add_event(tenant, received_at=recent)
    for seq in old_seqs[:5]:
        job = add_job(tenant, sub_id, event_seq=seq, created_at=old)
        record_attempt(tenant, sub_id, Outcome.delivered, at=old, job_id=job)
    stuck = add_job(tenant, sub_id, event_seq=old_seqs[5], created_at=old, state="retrying")
    add_job(tenant, sub_id, event_seq=recent_seq, created_at=recent)
    record_attempt(tenant, sub_id, Outcome.failed, at=recent)
    before = _deleted_metric("event_log")

    report = sweep_once(engine=get_engine(), retention=timedelta(days=30), batch_rows=2)

    assert report is not None
    assert abs((report.horizon - hours_ago(30 * DAY)).total_seconds()) < 60
    assert read_coverage() == report.coverage_start == report.horizon
    assert _count("SELECT count(*) FROM event_log WHERE tenant_id = :t", t=tenant) == 1
    assert _count("SELECT count(*) FROM delivery_attempts WHERE tenant_id = :t", t=tenant) == 1
    jobs = _count("SELECT count(*) FROM delivery_jobs WHERE tenant_id = :t", t=tenant)
    assert jobs == 2 and _count("SELECT count(*) FROM delivery_jobs WHERE id = :id", id=stuck) == 1
    assert report.deleted["event_log"] >= 7 and report.deleted["delivery_attempts"] >= 5
    assert _deleted_metric("event_log") - before >= 7


def test_coverage_never_moves_backwards(coverage):
    """A sweep with a horizon older than the recorded coverage leaves coverage where it is."""
    coverage(hours_ago(2))
    kept = read_coverage()
    report = sweep_once(engine=get_engine(), retention=timedelta(days=30), batch_rows=100)
    assert report is not None and report.coverage_start == kept == read_coverage()


def test_one_sweeper_at_a_time(coverage):
    """While another session holds the sweep lock, a sweep does nothing and says so."""
    with psycopg.connect(libpq_url(), autocommit=True) as holder:
        holder.execute("SELECT pg_advisory_lock(%s)", (SWEEP_LOCK_KEY,))
        try:
            assert sweep_once(engine=get_engine(), retention=timedelta(days=30), batch_rows=10) is None
        finally:
            holder.execute("SELECT pg_advisory_unlock(%s)", (SWEEP_LOCK_KEY,))
    assert REGISTRY.get_sample_value("streaming_hub_retention_sweeps_total", {"result": "locked_elsewhere"}) >= 1


def test_uuid7_floor_orders_below_later_ids():
    """Every id minted at or after an instant sorts at or above that instant's floor."""
    from devkit.deliveries import uuid7_at

    moment = now()
    assert uuid7_at(moment - timedelta(milliseconds=2)) < uuid7_floor(moment) <= uuid7_at(moment)


def test_hub_sweep_command_runs_once(coverage):
    """`hub sweep` runs one sweep and reports it."""
    done = subprocess.run([sys.executable, "-m", "hub.cli", "sweep"], capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    assert "coverage starts" in done.stdout


def _parsed(stamp: str) -> datetime:
    return datetime.fromisoformat(stamp.replace("Z", "+00:00"))


def test_fresh_install_covers_back_to_the_retention_horizon(api, coverage):
    """R-getDashboard-09, R-getDashboardNeedsAttention-14, R-getSubscriptionHealth-05: before any sweep,
    nothing was ever deleted, so coverage_start is the retention horizon (moving with time), not the
    install instant; the default 24 h dashboard and needs-attention list are served on day one."""
    coverage(now(), swept_at=None)  # a fresh install: the row as the migration leaves it, never swept
    first = api.client.get("/v1/dashboard", headers=api.headers(None))
    assert first.status_code == 200, first.text
    body = first.json()
    horizon = _parsed(body["snapshot_at"]) - timedelta(days=30)
    assert _parsed(body["coverage_start"]) == horizon
    full = api.client.get("/v1/dashboard", params={"window_hours": str(30 * DAY)}, headers=api.headers(None))
    assert full.status_code == 200, full.text
    listed = api.client.get("/v1/dashboard/subscriptions", headers=api.headers(None))
    assert listed.status_code == 200, listed.text
    later = api.client.get("/v1/dashboard", headers=api.headers(None)).json()
    assert _parsed(later["coverage_start"]) >= horizon  # it moves with time until a sweep fixes it


def test_first_sweep_fixes_coverage_at_its_horizon(api, coverage):
    """The first sweep records its own horizon (never the later install instant), and from then on the
    coverage stays where the sweeps put it: it never claims rows a sweep may have deleted."""
    coverage(now(), swept_at=None)
    report = sweep_once(engine=get_engine(), retention=timedelta(days=30), batch_rows=100)
    assert report is not None and report.coverage_start == report.horizon == read_coverage()
    body = api.client.get("/v1/dashboard", headers=api.headers(None)).json()
    assert _parsed(body["coverage_start"]) == report.horizon
    too_early = api.client.get("/v1/dashboard", params={"from": (report.horizon - timedelta(hours=1)).isoformat(),
                                                               "to": (report.horizon + timedelta(hours=1)).isoformat()},
                               headers=api.headers(None))
    assert too_early.status_code == 422 and too_early.json()["details"]["coverage_start"]

"""The hourly count rollups behind the dashboard: kept by triggers, read for whole hours, swept with
retention, backfilled by revision 0011, and exact under concurrent writers (R-getDashboard-21/23/24,
R-getDashboardNeedsAttention-12/13)."""

from __future__ import annotations

import os
import random
import subprocess
import sys
import threading
import uuid
from datetime import UTC, datetime, timedelta

import psycopg
from sqlalchemy import text

from hub.dashboard.period import Period, hour_parts
from hub.dataplane.rollups import NO_SUBSCRIPTION
from hub.db import get_engine, libpq_url
from hub.retention.service import sweep_once
from hub.sinks.vocabulary import Outcome
from tests.dashboard.conftest import webhook
from devkit.deliveries import add_event, add_job, hours_ago, now, record_attempt, record_poison

ATTEMPT_COLUMNS = ("id, tenant_id, subscription_id, sink_kind, outcome, status_code, error_class, latency_ms,"
                   " attempted_at")
RAW = {
    "events": ("SELECT date_trunc('hour', received_at, 'UTC'), coalesce(delegated_scope, ''), count(*)"
               " FROM event_log WHERE tenant_id = :t GROUP BY 1, 2"),
    "jobs": ("SELECT date_trunc('hour', created_at, 'UTC'), subscription_id, count(*)"
             " FROM delivery_jobs WHERE tenant_id = :t GROUP BY 1, 2"),
    "attempts": (f"SELECT date_trunc('hour', attempted_at, 'UTC'), coalesce(subscription_id, '{NO_SUBSCRIPTION}'),"
                 " outcome, count(*), max(attempted_at) FROM delivery_attempts WHERE tenant_id = :t GROUP BY 1, 2, 3"),
    "job totals": ("SELECT date_trunc('hour', created_at, 'UTC'), count(*) FROM delivery_jobs WHERE tenant_id = :t"
                   " GROUP BY 1"),
    "attempt totals": ("SELECT date_trunc('hour', attempted_at, 'UTC'), outcome, count(*) FROM delivery_attempts"
                       " WHERE tenant_id = :t GROUP BY 1, 2"),
}
ROLLED = {
    "events": "SELECT hour, delegated_scope, events FROM event_counts_hourly WHERE tenant_id = :t",
    "jobs": "SELECT hour, subscription_id, jobs FROM job_counts_hourly WHERE tenant_id = :t",
    "attempts": ("SELECT hour, subscription_id, outcome, attempts, last_attempted_at FROM attempt_counts_hourly"
                 " WHERE tenant_id = :t"),
    "job totals": "SELECT hour, jobs FROM job_totals_hourly WHERE tenant_id = :t",
    "attempt totals": "SELECT hour, outcome, attempts FROM attempt_totals_hourly WHERE tenant_id = :t",
}


def _rows(sql: str, tenant: str, url: str | None = None) -> set[tuple]:
    if url is None:
        with get_engine().connect() as connection:
            return {tuple(row) for row in connection.execute(text(sql), {"t": tenant})}
    with psycopg.connect(url) as connection:
        return {tuple(row) for row in connection.execute(sql.replace(":t", "%(t)s"), {"t": tenant})}


def assert_rollups_match_raw(tenant: str, url: str | None = None) -> None:
    """Every rollup row is the raw table's count (and latest attempt) of its tenant, hour and key."""
    for figure in RAW:
        assert _rows(ROLLED[figure], tenant, url) == _rows(RAW[figure], tenant, url), figure


def iso(moment: datetime) -> str:
    return moment.astimezone(UTC).isoformat().replace("+00:00", "Z")


def dashboard(api, **params):
    response = api.client.get("/v1/dashboard", params=params, headers=api.headers(None, None))
    assert response.status_code == 200, response.text
    return response.json()


def base_hour() -> datetime:
    return hours_ago(5 * 24).replace(minute=0, second=0, microsecond=0)


def test_whole_hours_come_from_the_rollup_partial_ends_from_the_raw_rows(api, tenant, coverage):
    """A period from hh:30 to hh:30 counts its two partial hours from the raw rows and the whole hours
    between from the rollup, each row once; bucket sums equal the period counts (R-getDashboard-21/23/24)."""
    sub_id = webhook(api)
    hour = base_hour()
    minutes = (10, 50, 80, 160, 200, 215)  # 00:10 and 03:35 fall outside [00:30, 03:30)
    outcomes = (Outcome.delivered, Outcome.failed, Outcome.delivered, Outcome.dead_lettered, Outcome.failed,
                Outcome.delivered)
    for minute, outcome in zip(minutes, outcomes, strict=True):
        moment = hour + timedelta(minutes=minute)
        job = add_job(tenant, sub_id, event_seq=add_event(tenant, received_at=moment), created_at=moment)
        record_attempt(tenant, sub_id, outcome, at=moment, job_id=job)
    record_poison(tenant, at=hour + timedelta(minutes=100))
    start, end = hour + timedelta(minutes=30), hour + timedelta(minutes=210)
    assert hour_parts(Period(start, end)) == [
        (True, hour + timedelta(hours=1), hour + timedelta(hours=3)),
        (False, start, hour + timedelta(hours=1)), (False, hour + timedelta(hours=3), end)]
    assert_rollups_match_raw(tenant)

    period = dashboard(api, **{"from": iso(start), "to": iso(end)})["selected_period"]
    assert period["events_received"] == 4 and period["push"]["delivery_jobs_created"] == 4
    attempts = period["push"]["delivery_attempts"]
    assert (attempts["delivered"], attempts["failed"], attempts["dead_lettered"], attempts["poison"]) == (1, 2, 1, 1)
    assert [bucket["events_received"] for bucket in period["time_series"]] == [1, 1, 1, 1]
    assert sum(b["push"]["delivery_attempts"]["failed"] for b in period["time_series"]) == 2

    # White-box: an extra count put in a whole hour's rollup row shows; one in an edge hour's does not.
    with get_engine().begin() as connection:
        connection.execute(text("UPDATE event_counts_hourly SET events = events + 100 WHERE tenant_id = :t"
                                " AND hour IN (:whole, :edge)"),
                           {"t": tenant, "whole": hour + timedelta(hours=1), "edge": hour})
    assert dashboard(api, **{"from": iso(start), "to": iso(end)})["selected_period"]["events_received"] == 104


def test_attention_counts_merge_rollup_hours_and_raw_edges(api, tenant, coverage):
    """The needs-attention counts add the rollup's whole hours to the raw partial hours, and its last
    failure in the period is the rollup's latest failed attempt (R-getDashboardNeedsAttention-12/13)."""
    sub_id = webhook(api)
    hour = base_hour()
    for minute, outcome in ((40, Outcome.dead_lettered), (70, Outcome.delivered), (150, Outcome.failed),
                            (205, Outcome.failed), (230, Outcome.delivered)):
        record_attempt(tenant, sub_id, outcome, at=hour + timedelta(minutes=minute))
    start, end = hour + timedelta(minutes=30), hour + timedelta(minutes=210)
    response = api.client.get("/v1/dashboard/subscriptions", params={"from": iso(start), "to": iso(end)},
                              headers=api.headers(None, None))
    assert response.status_code == 200, response.text
    (item,) = [item for item in response.json()["items"] if item["subscription_id"] == sub_id]
    assert (item["period_delivery_attempts"], item["period_failed_attempts"],
            item["period_dead_lettered_attempts"]) == (4, 2, 1)
    assert item["attention_reasons"] == ["dead_lettered_in_period"]
    with get_engine().connect() as connection:
        latest = connection.execute(text(
            "SELECT last_attempted_at FROM attempt_counts_hourly WHERE subscription_id = :s AND outcome = 'failed'"
            " AND hour = :h"), {"s": sub_id, "h": hour + timedelta(hours=2)}).scalar_one()
    assert latest == hour + timedelta(minutes=150)


def test_retention_sweeps_rollup_hours_before_its_horizon(api, tenant, coverage):
    """After a sweep no rollup hour starts before the horizon, the hours after it still equal the raw
    rows, and a dashboard period from coverage_start counts exactly the rows kept."""
    sub_id = webhook(api)
    for moment in (hours_ago(40 * 24), hours_ago(30 * 24 + 0.5), hours_ago(29 * 24), hours_ago(3)):
        job = add_job(tenant, sub_id, event_seq=add_event(tenant, received_at=moment), created_at=moment,
                      state="delivered")
        record_attempt(tenant, sub_id, Outcome.delivered, at=moment, job_id=job)
    report = sweep_once(engine=get_engine(), retention=timedelta(days=30), batch_rows=100)
    assert report is not None
    for table in ("event_counts_hourly", "job_counts_hourly", "job_totals_hourly", "attempt_counts_hourly",
                  "attempt_totals_hourly"):
        with get_engine().connect() as connection:
            oldest = connection.execute(text(f"SELECT min(hour) FROM {table} WHERE tenant_id = :t"),
                                        {"t": tenant}).scalar_one()
        assert oldest >= report.horizon, table
        assert table in report.deleted
    assert_rollups_match_raw(tenant)
    body = dashboard(api, **{"from": iso(report.coverage_start), "to": iso(now() - timedelta(minutes=1))})
    period = body["selected_period"]
    assert period["events_received"] == 2 and period["push"]["delivery_jobs_created"] == 2
    assert period["push"]["delivery_attempts"]["delivered"] == 2


def _insert_attempts(url: str, tenant: str, subs: list[str], moment: datetime, hold: threading.Event | None = None,
                     held: threading.Event | None = None) -> None:
    rows = [(uuid.uuid4(), tenant, sub, "webhook", outcome, 0, "", 0, moment)
            for sub in subs for outcome in ("delivered", "failed")]
    random.shuffle(rows)
    with psycopg.connect(url) as connection, connection.transaction():
        with connection.cursor().copy(f"COPY delivery_attempts ({ATTEMPT_COLUMNS}) FROM STDIN") as copy:
            for row in rows:
                copy.write_row(row)
        connection.execute(
            "INSERT INTO event_log (tenant_id, seq, source, ce_id, event_type, schema_version, schema_major,"
            " received_at, data, kafka_topic, kafka_partition, kafka_offset)"
            " SELECT %s, nextval('rollup_test_seq'), 'ledger', gen_random_uuid()::text, 't.x', '1.0.0', 1, %s,"
            " '{}', 't', 0, 0 FROM generate_series(1, 3)", (tenant, moment))
        if held is not None and hold is not None:
            held.set()
            hold.wait(10)


def test_two_writers_into_the_same_hour_wait_and_add_up(tenant):
    """A second transaction adding to the same rollup rows waits for the first, then adds: no lost
    update; many concurrent batches over the same keys in shuffled order never deadlock."""
    url = libpq_url()
    with psycopg.connect(url, autocommit=True) as connection:
        connection.execute("CREATE SEQUENCE IF NOT EXISTS rollup_test_seq")
    subs = [str(uuid.uuid4()) for _ in range(4)]
    moment = hours_ago(1).replace(minute=7)
    hold, held = threading.Event(), threading.Event()
    first = threading.Thread(target=_insert_attempts, args=(url, tenant, subs, moment, hold, held))
    first.start()
    assert held.wait(10)
    second = threading.Thread(target=_insert_attempts, args=(url, tenant, subs[::-1], moment))
    second.start()
    second.join(0.5)
    assert second.is_alive(), "the second writer did not wait for the first one's rollup rows"
    hold.set()
    first.join(10)
    second.join(10)
    assert not second.is_alive()

    errors: list[BaseException] = []

    def writer() -> None:
        try:
            for _ in range(15):
                _insert_attempts(url, tenant, random.sample(subs, k=3), moment)
        except BaseException as exc:  # noqa: BLE001 (reported below)
            errors.append(exc)

    writers = [threading.Thread(target=writer) for _ in range(3)]
    for thread in writers:
        thread.start()
    for thread in writers:
        thread.join(60)
    assert not errors, errors
    assert_rollups_match_raw(tenant)
    total = _rows("SELECT sum(attempts) FROM attempt_counts_hourly WHERE tenant_id = :t", tenant)
    assert total == {(2 * 4 * 2 + 3 * 15 * 3 * 2,)}


def test_revision_0011_backfills_the_rows_written_before_it(tenant):
    """A database at 0010 with events, jobs and attempts (poison too) gets rollups equal to them on
    upgrade, and rows written afterwards are added by the triggers."""
    name = f"hub_rollup_{uuid.uuid4().hex[:8]}"
    base = libpq_url()
    url = base.rsplit("/", 1)[0] + f"/{name}"
    env = {**os.environ, "HUB_DATABASE_URL": url.replace("postgresql://", "postgresql+psycopg://", 1)}

    def migrate(revision: str) -> None:
        done = subprocess.run([sys.executable, "-c", f"from hub import migrate; migrate.upgrade({revision!r})"],
                              env=env, capture_output=True, text=True, timeout=120)
        assert done.returncode == 0, done.stderr[-2000:]

    with psycopg.connect(base, autocommit=True) as admin:
        admin.execute(f'CREATE DATABASE "{name}"')
    try:
        migrate("0010")
        sub = uuid.uuid4()
        with psycopg.connect(url) as connection:
            for seq, (hours, scope) in enumerate(((50, None), (50, "party"), (49.5, None), (2, None)), start=1):
                moment = now() - timedelta(hours=hours)
                connection.execute(
                    "INSERT INTO event_log (tenant_id, seq, source, ce_id, event_type, schema_version, schema_major,"
                    " delegated_scope, received_at, data, kafka_topic, kafka_partition, kafka_offset)"
                    " VALUES (%s, %s, 'ledger', %s, 't.x', '1.0.0', 1, %s, %s, '{}', 't', 0, 0)",
                    (tenant, seq, str(uuid.uuid4()), scope, moment))
                connection.execute(
                    "INSERT INTO delivery_jobs (id, tenant_id, subscription_id, event_seq, state, attempts,"
                    " next_attempt_at, last_error_class, created_at, updated_at)"
                    " VALUES (%s, %s, %s, %s, 'delivered', 1, %s, '', %s, %s)",
                    (uuid.uuid4(), tenant, sub, seq, moment, moment, moment))
                connection.execute(
                    f"INSERT INTO delivery_attempts ({ATTEMPT_COLUMNS})"
                    " VALUES (%s, %s, %s, 'webhook', 'delivered', 200, '', 1, %s),"
                    " (%s, %s, NULL, '', 'poison', 0, '', 0, %s)",
                    (uuid.uuid4(), tenant, sub, moment, uuid.uuid4(), tenant, moment))
        migrate("heads")
        assert_rollups_match_raw(tenant, url)
        assert _rows(ROLLED["events"], tenant, url)
        with psycopg.connect(url) as connection:
            connection.execute(
                f"INSERT INTO delivery_attempts ({ATTEMPT_COLUMNS})"
                " VALUES (%s, %s, %s, 'webhook', 'failed', 503, '', 1, now())", (uuid.uuid4(), tenant, sub))
        assert_rollups_match_raw(tenant, url)
    finally:
        with psycopg.connect(base, autocommit=True) as admin:
            admin.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')

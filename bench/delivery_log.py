"""Delivery-log read latency: ``GET /v1/subscriptions/{id}/deliveries`` on a subscription with many jobs.

A scratch database (created, migrated, dropped) holds one tenant's webhook subscription with
``--jobs`` delivery jobs (1,000,000 by default) over 30 days: one event each in ``event_log``, job ids
UUIDv7 as ingest mints them, states delivered 90 %, dead-lettered 6 %, disabled 2 %, retrying 2 %, and
one attempt per job. Rows are written server-side (``INSERT ... SELECT generate_series``), then
``VACUUM ANALYZE``d. A real ``hub api`` process serves it on a loopback port.

Figures: the median and p90 of ``--requests`` timed requests per scenario (after 2 warm-up rounds, the
scenarios taking turns request by request), for the first page (50 jobs with their events and
attempts), a page halfway down (``after`` = a cursor in the middle), the first page of a state filter
and of an event-type filter, one job, and the baseline ``GET /v1/subscriptions/{id}`` (getSubscription:
authentication, rate limit and one indexed row) in the same run. No timing is asserted anywhere.

Run: ``python bench/delivery_log.py`` (``--jobs 200000`` to seed less; ``--requests 30``).
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import time
import uuid
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import httpx
import psycopg

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench._ingest_setup import ROOT, Scratch  # noqa: E402
from bench._processes import wait_for_api  # noqa: E402
from hub.auth.tokens import mint_token  # noqa: E402
from hub.deliverylog.filters import encode_cursor  # noqa: E402
from devkit.pg import free_port  # noqa: E402

TENANT = "bench-log"
# A UUIDv7 whose time part is the row's creation instant (milliseconds), random bits after it.
UUID7_SQL = ("(lpad(to_hex((extract(epoch FROM {at}) * 1000)::bigint), 12, '0') || '7' || substr(md5(g::text), 1, 3)"
             " || '8' || substr(md5(g::text || 'x'), 1, 15))::uuid")
SEED_SQL = [
    """INSERT INTO event_log (tenant_id, seq, source, ce_id, event_type, schema_version, schema_major, received_at,
                              event_time, attributes, data, kafka_topic, kafka_partition, kafka_offset)
       SELECT %(tenant)s, g, 'ledger', 'e-' || g, CASE WHEN g %% 10 = 0 THEN 'account.created'
              ELSE 'transaction.posted' END, '1.0.0', 1, now() - interval '30 days' + make_interval(secs => g * %(secs)s),
              now() - interval '30 days' + make_interval(secs => g * %(secs)s), '{}', '{"amount": 1}', 't', 0, g
         FROM generate_series(1, %(jobs)s) AS g""",
    f"""INSERT INTO delivery_jobs (id, tenant_id, subscription_id, event_seq, state, attempts, next_attempt_at,
                                  last_error_class, created_at, updated_at)
        SELECT {UUID7_SQL.format(at="now() - interval '30 days' + make_interval(secs => g * %(secs)s)")}, %(tenant)s, %(sub)s, g,
               CASE WHEN g %% 50 = 0 THEN 'dead_lettered' WHEN g %% 50 IN (1, 2) THEN 'disabled'
                    WHEN g %% 50 = 3 THEN 'retrying' WHEN g %% 50 IN (4, 5) THEN 'dead_lettered' ELSE 'delivered' END,
               1, now() + interval '1 day', '', now() - interval '30 days' + make_interval(secs => g * %(secs)s),
               now() - interval '30 days' + make_interval(secs => g * %(secs)s)
          FROM generate_series(1, %(jobs)s) AS g""",
    """INSERT INTO delivery_attempts (id, job_id, tenant_id, subscription_id, sink_kind, event_seq, attempt_no,
                                      outcome, status_code, error_class, detail, latency_ms, attempted_at)
       SELECT gen_random_uuid(), j.id, j.tenant_id, j.subscription_id, 'webhook', j.event_seq, 1,
              CASE j.state WHEN 'delivered' THEN 'delivered' WHEN 'retrying' THEN 'failed' ELSE j.state END,
              CASE j.state WHEN 'delivered' THEN 200 ELSE 503 END,
              CASE j.state WHEN 'delivered' THEN '' ELSE 'http_5xx' END, '', 40, j.created_at + interval '1 second'
         FROM delivery_jobs AS j WHERE j.subscription_id = %(sub)s""",
]


def seed(dsn: str, jobs: int) -> uuid.UUID:
    sub = uuid.uuid4()
    started = time.perf_counter()
    with psycopg.connect(dsn) as conn:
        conn.execute("""INSERT INTO subscriptions (id, tenant_id, name, sink_kind, endpoint, signature_version,
                            plan_tier, enabled, verification_state, credential_kind, auto_disabled, disabled_reason,
                            created_at, updated_at)
                        VALUES (%s, %s, 'bench-log', 'webhook', 'https://hooks.example/log', 'v1', 'standard', true,
                                'active', 'none', false, '', now(), now())""", (sub, TENANT))
        params = {"tenant": TENANT, "sub": sub, "jobs": jobs, "secs": 30 * 86400 / jobs}
        for statement in SEED_SQL:
            conn.execute(statement, params)
    with psycopg.connect(dsn, autocommit=True) as conn:
        conn.execute("VACUUM ANALYZE event_log, delivery_jobs, delivery_attempts")
    print(f"seeded {jobs:,} jobs, events and attempts in {time.perf_counter() - started:.1f} s", flush=True)
    return sub


@contextmanager
def api_process(url: str) -> Iterator[str]:
    port = free_port()
    env = {**os.environ, "HUB_DATABASE_URL": url, "HUB_API_PORT": str(port), "HUB_API_HOST": "127.0.0.1",
           "HUB_RATE_LIMIT_READS": "100000000", "HUB_CATALOG_REFRESHER_ENABLED": "false", "HUB_LOG_LEVEL": "WARNING",
           "PYTHONPATH": str(ROOT)}
    process = subprocess.Popen([sys.executable, "-m", "hub.cli", "api"], cwd=ROOT, env=env)
    base = f"http://127.0.0.1:{port}"
    try:
        wait_for_api(base, seconds=60)
        yield base
    finally:
        process.terminate()
        process.wait(timeout=15)


def scenarios(dsn: str, sub: uuid.UUID, jobs: int) -> dict[str, tuple[str, dict[str, str]]]:
    with psycopg.connect(dsn) as conn:
        middle, one = conn.execute("SELECT (SELECT id FROM delivery_jobs WHERE subscription_id = %s AND event_seq = %s),"
                                   " (SELECT id FROM delivery_jobs WHERE subscription_id = %s AND event_seq = 7)",
                                   (sub, jobs // 2, sub)).fetchone()
    log = f"/v1/subscriptions/{sub}/deliveries"
    return {
        "baseline getSubscription": (f"/v1/subscriptions/{sub}", {}),
        "list, first page": (log, {}),
        "list, page halfway down": (log, {"after": encode_cursor(middle)}),
        "list, state=dead_lettered": (log, {"state": "dead_lettered"}),
        "list, event_type=account.created": (log, {"event_type": "account.created"}),
        "one job": (f"{log}/{one}", {}),
    }


def measure(base: str, cases: dict[str, tuple[str, dict[str, str]]], repeat: int) -> dict[str, list[float]]:
    token = mint_token(tenant=TENANT, permissions=["subscriptions:get"])
    samples: dict[str, list[float]] = {name: [] for name in cases}
    with httpx.Client(base_url=base, headers={"Authorization": f"Bearer {token}"}, timeout=60) as client:
        for round_no in range(repeat + 2):
            for name, (path, params) in cases.items():
                started = time.perf_counter()
                answer = client.get(path, params=params)
                elapsed = (time.perf_counter() - started) * 1000
                assert answer.status_code == 200, answer.text
                if round_no >= 2:
                    samples[name].append(elapsed)
    return samples


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--jobs", type=int, default=1_000_000)
    parser.add_argument("--requests", type=int, default=30)
    args = parser.parse_args()
    with Scratch() as scratch:
        sub = seed(scratch.dsn, args.jobs)
        cases = scenarios(scratch.dsn, sub, args.jobs)
        with api_process(scratch.url) as base:
            samples = measure(base, cases, args.requests)
    print(f"\n{args.jobs:,} jobs on one subscription, {args.requests} requests per scenario (ms)")
    print(f"{'scenario':36} {'p50':>8} {'p90':>8}")
    for name, found in samples.items():
        ordered = sorted(found)
        print(f"{name:36} {statistics.median(ordered):8.1f} {ordered[int(len(ordered) * 0.9) - 1]:8.1f}")


if __name__ == "__main__":
    main()

"""The real engine to RabbitMQ for ``bench/queues.py --engine``: a ``hub deliver`` process, its own database.

A migrated scratch PostgreSQL holds ``count`` active RabbitMQ subscriptions (sealed static credential,
one exchange each) of one tenant, and ``events`` stored events with one due job per (event,
subscription), inserted in one transaction. The figure is messages/s from that commit until every
job reads ``delivered``: claim, prepare, publish with confirms, record, as ``hub deliver`` does it.
A warm-up round (connections, the subscription cache) runs first, outside the timing.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
import uuid
from collections.abc import Iterator
from contextlib import contextmanager

import orjson
import psycopg

from hub.secrets import mint_signing_secret, seal
from hub.subscription.service import secret_context
from devkit.scratchdb import migrated_scratch_database

TENANT = "t-bench-queues"


def _libpq(url: str) -> str:
    return url.replace("postgresql+psycopg://", "postgresql://", 1)


def add_subscriptions(dsn: str, endpoints: list[str], broker_url: str) -> list[uuid.UUID]:
    """Active, enabled RabbitMQ subscriptions with the broker credential sealed as the credential PUT stores it."""
    ids = []
    with psycopg.connect(dsn) as conn:
        for endpoint in endpoints:
            sub_id = uuid.uuid4()
            credential = seal(orjson.dumps({"uri": broker_url}), context=secret_context(sub_id, "credential"))
            secret = seal(mint_signing_secret(), context=secret_context(sub_id, "secret_current"))
            conn.execute("""
                INSERT INTO subscriptions (id, tenant_id, name, sink_kind, endpoint, signature_version, plan_tier,
                    enabled, verification_state, credential_kind, credential_sealed, secret_current,
                    auto_disabled, disabled_reason, created_at, updated_at)
                VALUES (%s, %s, %s, 'rabbitmq', %s, 'v1', 'standard', true, 'active', 'static_credential', %s, %s,
                        false, '', now(), now())""",
                         (sub_id, TENANT, f"bench-{sub_id.hex[:8]}", endpoint, credential, secret))
            ids.append(sub_id)
    return ids


def add_jobs(dsn: str, subscriptions: list[uuid.UUID], events: int) -> int:
    """``events`` stored events and one due job per (event, subscription), in one transaction; returns jobs."""
    with psycopg.connect(dsn) as conn:
        [(last,)] = conn.execute("""
            INSERT INTO tenant_counters (tenant_id, last_seq) VALUES (%s, %s)
            ON CONFLICT (tenant_id) DO UPDATE SET last_seq = tenant_counters.last_seq + EXCLUDED.last_seq
            RETURNING last_seq""", (TENANT, events)).fetchall()
        seqs = range(last - events + 1, last + 1)
        with conn.cursor() as cursor:
            cursor.executemany("""
                INSERT INTO event_log (tenant_id, seq, source, ce_id, event_type, schema_version, schema_major,
                    received_at, attributes, data, kafka_topic, kafka_partition, kafka_offset)
                VALUES (%s, %s, 'ledger', %s, 'orders.created', '1.0.0', 1, now(), %s, %s, 'bench', 0, %s)""",
                [(TENANT, seq, f"e-{seq}", json.dumps(_attributes(seq)),
                  json.dumps({"order": seq, "total": "10.50", "note": "café ✓"}), seq) for seq in seqs])
            cursor.executemany("""
                INSERT INTO delivery_jobs (id, tenant_id, subscription_id, event_seq, state, attempts,
                    next_attempt_at, last_error_class, created_at, updated_at)
                VALUES (%s, %s, %s, %s, 'pending', 0, now(), '', now(), now())""",
                [(uuid.uuid4(), TENANT, sub, seq) for seq in seqs for sub in subscriptions])
    return events * len(subscriptions)


def _attributes(seq: int) -> dict[str, str]:
    return {"specversion": "1.0", "id": f"e-{seq}", "source": "ledger", "type": "orders.created",
            "tenantid": TENANT, "datacontenttype": "application/json", "time": "2026-12-03T12:00:00Z",
            "dataschema": "https://schemas.example.com/orders/1", "schemaversion": "1.0.0", "partitionkey": "order-7"}


def _unfinished(dsn: str) -> int:
    with psycopg.connect(dsn) as conn:
        [(count,)] = conn.execute("SELECT count(*) FROM delivery_jobs WHERE state <> 'delivered'").fetchall()
    return count


def _wait_done(dsn: str, process: subprocess.Popen, timeout: float) -> None:
    deadline = time.monotonic() + timeout
    while _unfinished(dsn):
        if process.poll() is not None:
            raise SystemExit(f"hub deliver exited ({process.returncode})")
        if time.monotonic() > deadline:
            raise SystemExit(f"hub deliver did not finish in {timeout:.0f} s ({_unfinished(dsn)} jobs left)")
        time.sleep(0.02)


@contextmanager
def engine_database() -> Iterator[str]:
    """A migrated scratch database of its own (the engine claims every due job in its database)."""
    with migrated_scratch_database() as url:
        yield url


@contextmanager
def deliver_process(url: str, workers: int) -> Iterator[subprocess.Popen]:
    env = {**os.environ, "HUB_DATABASE_URL": url, "HUB_LOG_LEVEL": "WARNING", "HUB_DELIVER_METRICS_PORT": "0"}
    process = subprocess.Popen([sys.executable, "-m", "workers.cli", "deliver", "--processes", str(workers)], env=env,
                               stdout=subprocess.DEVNULL)
    try:
        yield process
    finally:
        process.terminate()
        try:
            process.wait(timeout=60)
        except subprocess.TimeoutExpired:
            process.kill()


def engine_rate(url: str, subscriptions: list[uuid.UUID], events: int, workers: int) -> float:
    """Messages/s of ``hub deliver`` from the jobs' commit until all are delivered (after a warm-up round)."""
    dsn = _libpq(url)
    with psycopg.connect(dsn, autocommit=True) as conn:
        conn.execute("DELETE FROM delivery_attempts")
        conn.execute("DELETE FROM delivery_jobs")
    with deliver_process(url, workers) as process:
        add_jobs(dsn, subscriptions, 5)
        _wait_done(dsn, process, 120)
        start = time.perf_counter()
        jobs = add_jobs(dsn, subscriptions, events)
        _wait_done(dsn, process, 600)
        return jobs / (time.perf_counter() - start)

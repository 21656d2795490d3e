"""Engine tests: a migrated scratch PostgreSQL of their own (the engine claims every due job),
real HTTPS receivers on loopback, and the loopback DNS server naming them."""

from __future__ import annotations

import asyncio
import json
import time
import uuid
from collections.abc import Callable, Iterator
from datetime import UTC, datetime
from typing import Any

import psycopg
import pytest

from hub.config import get_settings
from hub.secrets import mint_signing_secret, seal
from hub.subscription.service import secret_context
from devkit.dnsserver import DnsServer
from tests.sinks.conftest import HOOK_HOST, ca, ca_bundle, hook_dns  # noqa: F401 (shared fixtures)
from devkit.receiver import Receiver, scripted_receiver
from devkit.scratchdb import migrated_scratch_database

FAST = {"deliver_retry_ladder_seconds": "0.2,0.2", "deliver_retry_jitter": "0", "deliver_lease_seconds": "5",
        "deliver_hold_recheck_seconds": "0.2", "deliver_idle_poll_seconds": "0.05",
        "deliver_batch_size": "100"}


@pytest.fixture(scope="session")
def scratch_url() -> Iterator[str]:
    with migrated_scratch_database() as url:
        yield url


@pytest.fixture
def deliver_db(scratch_url: str, override_settings: Callable[..., None], hook_dns: DnsServer) -> str:
    """Point the hub at the scratch database with a short retry ladder; returns the libpq URL."""
    override_settings(database_url=scratch_url, **FAST)
    return scratch_url.replace("postgresql+psycopg://", "postgresql://", 1)


def sql(url: str, query: str, params: Any = None) -> list[tuple]:
    with psycopg.connect(url, autocommit=True) as conn:
        cursor = conn.execute(query, params)
        return cursor.fetchall() if cursor.description else []


def insert_subscription(url: str, tenant: str, endpoint: str, *, state: str = "active", enabled: bool = True,
                        sink_kind: str = "webhook", secrets: tuple[str, ...] | None = None,
                        timeout_ms: int | None = None, deleted: bool = False) -> tuple[uuid.UUID, tuple[str, ...]]:
    sub_id = uuid.uuid4()
    secrets = secrets or (mint_signing_secret(),)
    current = seal(secrets[0], context=secret_context(sub_id, "secret_current"))
    previous = seal(secrets[1], context=secret_context(sub_id, "secret_previous")) if len(secrets) > 1 else None
    now = datetime.now(UTC)
    overlap = now.replace(year=now.year + 1) if previous else None
    sql(url, """
        INSERT INTO subscriptions (id, tenant_id, name, sink_kind, endpoint, timeout_ms, signature_version, plan_tier,
            enabled, verification_state, credential_kind, secret_current, secret_previous, secret_overlap_until,
            auto_disabled, disabled_reason, created_at, updated_at, deleted_at)
        VALUES (%s, %s, %s, %s, %s, %s, 'v1', 'standard', %s, %s, 'signing_secret', %s, %s, %s, false, '', now(),
                now(), %s)""",
        (sub_id, tenant, f"s-{sub_id.hex[:8]}", sink_kind, endpoint, timeout_ms, enabled, state, current, previous,
         overlap, now if deleted else None))
    return sub_id, secrets


def insert_events(url: str, tenant: str, subscriptions: list[uuid.UUID], count: int,
                  data: Callable[[int], str] = lambda i: f'{{"n": {i}, "amount": 1.50}}') -> list[int]:
    """``count`` events in the tenant's log and one job per (event, subscription); returns the seqs."""
    [(last,)] = sql(url, """INSERT INTO tenant_counters (tenant_id, last_seq) VALUES (%s, %s)
                            ON CONFLICT (tenant_id) DO UPDATE SET last_seq = tenant_counters.last_seq + EXCLUDED.last_seq
                            RETURNING last_seq""", (tenant, count))
    seqs = list(range(last - count + 1, last + 1))
    with psycopg.connect(url, autocommit=True) as conn:
        for seq in seqs:
            attributes = {"specversion": "1.0", "id": f"e-{seq}", "source": "ledger", "type": "transaction.posted",
                          "tenantid": tenant, "datacontenttype": "application/json"}
            conn.execute("""INSERT INTO event_log (tenant_id, seq, source, ce_id, event_type, schema_version,
                                schema_major, received_at, attributes, data, kafka_topic, kafka_partition, kafka_offset)
                            VALUES (%s, %s, 'ledger', %s, 'transaction.posted', '1.0.0', 1, now(), %s, %s, 't', 0, %s)""",
                         (tenant, seq, f"e-{seq}", json.dumps(attributes), data(seq), seq))
            for sub in subscriptions:
                conn.execute("""INSERT INTO delivery_jobs (id, tenant_id, subscription_id, event_seq, state, attempts,
                                    next_attempt_at, last_error_class, created_at, updated_at)
                                VALUES (%s, %s, %s, %s, 'pending', 0, now(), '', now(), now())""",
                             (uuid.uuid4(), tenant, sub, seq))
    return seqs


def copy_due_jobs(url: str, tenant: str, subscriptions: list[uuid.UUID], *, events: int, fanout: int) -> int:
    """``events`` events in the tenant's log and ``fanout`` due jobs per event, the subscriptions taken
    in rotation, written with COPY (fast enough for thousands); returns how many jobs."""
    jobs = 0
    with psycopg.connect(url) as conn, conn.cursor() as cursor:
        with cursor.copy("COPY event_log (tenant_id, seq, source, ce_id, event_type, schema_version, schema_major, "
                         "received_at, attributes, data, kafka_topic, kafka_partition, kafka_offset) FROM STDIN") as copy:
            for seq in range(1, events + 1):
                attributes = {"specversion": "1.0", "id": f"e-{seq}", "source": "ledger", "type": "transaction.posted",
                              "tenantid": tenant, "datacontenttype": "application/json"}
                copy.write_row((tenant, seq, "ledger", f"e-{seq}", "transaction.posted", "1.0.0", 1, "now",
                                json.dumps(attributes), json.dumps({"n": seq}), "t", 0, seq))
        with cursor.copy("COPY delivery_jobs (id, tenant_id, subscription_id, event_seq, state, attempts, "
                         "next_attempt_at, last_error_class, created_at, updated_at) FROM STDIN") as copy:
            for seq in range(1, events + 1):
                for k in range(fanout):
                    sub = subscriptions[(seq * fanout + k) % len(subscriptions)]
                    copy.write_row((uuid.uuid4(), tenant, sub, seq, "pending", 0, "now", "", "now", "now"))
                    jobs += 1
    return jobs


def job_states(url: str, tenant: str) -> dict[str, int]:
    return dict(sql(url, "SELECT state, count(*) FROM delivery_jobs WHERE tenant_id = %s GROUP BY state", (tenant,)))


def attempts(url: str, tenant: str) -> list[dict[str, Any]]:
    rows = sql(url, """SELECT job_id, outcome, status_code, error_class, attempt_no, event_seq, latency_ms, detail,
                              xmin::text FROM delivery_attempts WHERE tenant_id = %s ORDER BY attempted_at""", (tenant,))
    names = ["job_id", "outcome", "status_code", "error_class", "attempt_no", "event_seq", "latency_ms", "detail",
             "xmin"]
    return [dict(zip(names, row)) for row in rows]


TERMINAL = {"delivered", "dead_lettered", "disabled"}


def one_batch(set_up: Callable[[Any], None] = lambda engine: None, **batch: bool) -> int:
    """One claim → deliver → settle batch of the real engine (``set_up`` first given the engine; ``batch``:
    ``run_batch``'s options), on a connection of its own; jobs handled."""
    from workers.deliver.engine import Engine
    from workers.runtime import async_connector

    async def go() -> int:
        engine = Engine(settings=get_settings())
        set_up(engine)
        conn = await async_connector(application_name="hub-deliver")()
        try:
            return (await engine.run_batch(conn, **batch)).claimed
        finally:
            await conn.close()
            await engine.close()

    return asyncio.run(go())


def drive(until: Callable[[], bool], *, timeout: float = 20.0) -> None:
    """Run the real engine (one connection, batch after batch) until ``until()`` holds."""
    from workers.deliver.engine import Engine
    from workers.runtime import async_connector
    connect = async_connector(application_name="hub-deliver")

    async def go() -> None:
        engine = Engine(settings=get_settings())
        conn = await connect()
        deadline = time.monotonic() + timeout
        try:
            while not until():
                if time.monotonic() > deadline:
                    raise AssertionError("the engine did not get there in time")
                if not (await engine.run_batch(conn)).claimed:
                    await asyncio.sleep(0.05)
        finally:
            await conn.close()
            await engine.close()

    asyncio.run(go())


def all_terminal(url: str, tenant: str) -> Callable[[], bool]:
    return lambda: set(job_states(url, tenant)) <= TERMINAL


@pytest.fixture
def scripted(ca) -> Iterator[Receiver]:  # noqa: ANN001
    """A receiver answering from ``receiver.actions`` (then 200) and recording every request."""
    with scripted_receiver(ca, (HOOK_HOST,)) as state:
        yield state


def hook_url(receiver: Receiver) -> str:
    return f"https://{HOOK_HOST}:{receiver.port}/hooks"

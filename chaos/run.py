"""One chaos run: set up, traffic, the seeded faults, a drain, and the ledger."""

from __future__ import annotations

import os
import random
import tempfile
import time
import uuid
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path

import orjson
import psycopg

from chaos import ledger as books
from chaos.cluster import Cluster, api_port, hub_env, private_services, wait_for_apis
from chaos.faults import inject
from chaos.receivers import TIMEOUT_MS, Hooks, webhook_receivers
from chaos.schedule import Fault, describe, make_schedule
from chaos.traffic import EVENT_TYPE, SOURCE, ApiLog, ApiProber, Producer, PullReader
from hub.auth.tokens import mint_token
from hub.backbone.producer import shared_producer
from hub.config import get_settings
from hub.devtools.tree import DEFAULT_PERMISSIONS
from hub.kafka import ensure_topics

# A 5xx is allowed while the database is down and this long after it is back (pools reconnect).
DB_GRACE_SECONDS = 15.0
# Fast retries, short leases and a short hold recheck, so a run drains in a minute or two.
DELIVER_SETTINGS = {"HUB_DELIVER_RETRY_LADDER_SECONDS": "0.5,1,1,2,2,3,3,3", "HUB_DELIVER_RETRY_JITTER": "0.2",
                    "HUB_DELIVER_LEASE_SECONDS": "5", "HUB_DELIVER_HOLD_RECHECK_SECONDS": "1",
                    "HUB_DELIVER_BATCH_SIZE": "100", "HUB_KAFKA_SESSION_TIMEOUT_MS": "6000",
                    "HUB_EGRESS_ALLOW_CIDRS": "127.0.0.0/8"}


@dataclass(frozen=True)
class Plan:
    """The shape of a run: the seed, how many faults, the processes, the producer's rate."""

    seed: int
    faults: int
    short: bool
    apis: int
    ingests: int
    delivers: int
    rate: float
    drain_seconds: float


def full_plan(seed: int, faults: int = 30) -> Plan:
    return Plan(seed, faults, False, apis=2, ingests=2, delivers=3, rate=40.0, drain_seconds=240.0)


def short_plan(seed: int, faults: int = 5) -> Plan:
    return Plan(seed, faults, True, apis=2, ingests=1, delivers=2, rate=25.0, drain_seconds=75.0)


def add_subscriptions(dsn: str, tenant: str, hooks: Hooks) -> str:
    """A webhook subscription per receiver and one pull subscription; returns the pull one's id."""
    from hub.secrets import mint_signing_secret, seal
    from hub.subscription.service import secret_context

    now = datetime.now(UTC)
    rows = [(f"hook-{host.split('.')[0]}", "webhook", hooks.url(host)) for host in hooks.receivers]
    pull_id = uuid.uuid4()
    with psycopg.connect(dsn) as conn:
        for name, kind, endpoint in [*rows, ("pull", "pull", f"pull://{pull_id}")]:
            sub_id = pull_id if kind == "pull" else uuid.uuid4()
            secret = seal(mint_signing_secret(), context=secret_context(sub_id, "secret_current")) \
                if kind == "webhook" else None
            conn.execute(
                "INSERT INTO subscriptions (id, tenant_id, name, sink_kind, endpoint, event_types, timeout_ms, "
                "signature_version, plan_tier, enabled, verification_state, credential_kind, auto_disabled, "
                "disabled_reason, secret_current, created_at, updated_at) VALUES (%s, %s, %s, %s, %s, %s, %s, 'v1', "
                "'standard', true, 'active', %s, false, '', %s, %s, %s)",
                (sub_id, tenant, name, kind, endpoint, orjson.dumps([EVENT_TYPE]).decode(),
                 TIMEOUT_MS if kind == "webhook" else None, "signing_secret" if secret else "none", secret, now, now))
        conn.execute("INSERT INTO subscription_versions (id, version) VALUES (1, 1) "
                     "ON CONFLICT (id) DO UPDATE SET version = subscription_versions.version + 1")
    return str(pull_id)


def start_cluster(cluster: Cluster, plan: Plan) -> None:
    for _ in range(plan.apis):
        cluster.add("api", api_port())
    for _ in range(plan.ingests):
        cluster.add("ingest")
    for _ in range(plan.delivers):
        cluster.add("deliver")
    wait_for_apis(cluster.api_ports())


def run_faults(schedule: list[Fault], cluster: Cluster, hooks: Hooks, seed: int) -> list[tuple[float, float, str]]:
    """Carry out the schedule (each fault at its moment, or at once when the previous one overran);
    returns the windows (start, end + grace, kind) where API 5xx answers are allowed."""
    rng = random.Random(f"{seed}:victims")
    started, windows = time.monotonic(), []
    for fault in schedule:
        while time.monotonic() < started + fault.at:
            revive(cluster)
            time.sleep(0.2)
        begin = time.monotonic()
        hit = inject(fault, cluster, hooks, rng)
        end = time.monotonic()
        print(f"  fault #{fault.number:<3} {fault.kind:<17} on {hit:<22} t+{begin - started:6.1f}s "
              f"for {end - begin:5.1f}s", flush=True)
        if fault.kind == "restart_postgres":
            windows.append((begin, end + DB_GRACE_SECONDS, fault.kind))
    return windows


def revive(cluster: Cluster) -> None:
    for name in cluster.revive():
        print(f"  note: {name} exited on its own; restarted", flush=True)


def drain(plan: Plan, dsn: str, tenant: str, producer: Producer, reader: PullReader, cluster: Cluster) -> None:
    """Wait until every produced event is stored, every job is settled and the reader caught up."""
    producer.finish()
    deadline = time.monotonic() + plan.drain_seconds
    while time.monotonic() < deadline:
        revive(cluster)
        stored = books.stored_events(dsn, tenant)
        open_jobs = [row for row in books.jobs(dsn, tenant) if row[2] not in books.TERMINAL]
        if len(stored) >= len(producer.acked) and not open_jobs and len(reader.seen) >= len(stored):
            return
        time.sleep(1.0)
    print("  note: the drain period ended with work open", flush=True)


def account(dsn: str, tenant: str, producer: Producer, reader: PullReader, hooks: Hooks, log: ApiLog,
            windows: list[tuple[float, float, str]], cluster: Cluster) -> books.Ledger:
    ledger = books.Ledger()
    stored = books.stored_events(dsn, tenant)
    books.events_lines(ledger, producer.acked, stored)
    books.jobs_lines(ledger, books.jobs(dsn, tenant), len(stored), hooks.received())
    books.pull_lines(ledger, reader.seen, stored)
    books.api_lines(ledger, log.entries, windows)
    exits = sum(child.unplanned_exits for children in cluster.processes.values() for child in children)
    ledger.check("processes that exited on their own", exits, True)
    return ledger


def run(plan: Plan) -> books.Ledger:
    """The whole run; prints the seed, the schedule, the faults as they land and the ledger."""
    schedule = make_schedule(plan.seed, plan.faults, short=plan.short)
    print(f"chaos: seed {plan.seed} (replay with --seed {plan.seed}), {len(schedule)} faults\n{describe(schedule)}",
          flush=True)
    tag, tenant = uuid.uuid4().hex[:8], f"chaos-{uuid.uuid4().hex[:8]}"
    with tempfile.TemporaryDirectory(prefix="hub-chaos-") as folder, private_services() as (postgres, kafka), \
            webhook_receivers(plan.seed, Path(folder)) as hooks:
        env = hub_env(postgres.url, kafka, tag, {**DELIVER_SETTINGS, "HUB_DNS_NAMESERVERS": hooks.dns.address,
                                                  "HUB_WEBHOOK_CA_BUNDLE": str(hooks.ca_bundle)})
        os.environ.update(env)
        get_settings.cache_clear()
        topic = f"{get_settings().kafka_topic_prefix}{SOURCE}"
        ensure_topics([topic, get_settings().dlq_topic])
        dsn = postgres.url.replace("postgresql+psycopg://", "postgresql://", 1)
        pull_id = add_subscriptions(dsn, tenant, hooks)
        cluster = Cluster(postgres, kafka, env, Path(folder))
        try:
            return _traffic_and_faults(plan, schedule, cluster, hooks, dsn, tenant, topic, pull_id)
        finally:
            cluster.stop_all()


def _traffic_and_faults(plan: Plan, schedule: list[Fault], cluster: Cluster, hooks: Hooks, dsn: str, tenant: str,
                        topic: str, pull_id: str) -> books.Ledger:
    start_cluster(cluster, plan)
    token = mint_token(tenant=tenant, permissions=list(DEFAULT_PERMISSIONS), ttl_seconds=3600)
    log = ApiLog()
    producer = Producer(topic, tenant, plan.rate)
    reader = PullReader(cluster.api_ports(), token, pull_id, log)
    prober = ApiProber(cluster.api_ports(), token, log)
    for thread in (producer, reader, prober):
        thread.start()
    try:
        windows = run_faults(schedule, cluster, hooks, plan.seed)
        drain(plan, dsn, tenant, producer, reader, cluster)
    finally:
        for thread in (producer, reader, prober):
            thread.halt()
        shared_producer().close()  # before the private broker goes away
    ledger = account(dsn, tenant, producer, reader, hooks, log, windows, cluster)
    print(ledger.table(), flush=True)
    return ledger

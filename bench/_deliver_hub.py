"""The hub part of bench/deliver.py: real ``hub ingest`` and ``hub deliver`` processes on a scratch
database, delivering to the bench's nginx. Not a bench of its own (``make bench`` skips it).

Receipts come from nginx's log (``$msec`` and the ``webhook-id`` header, which is the delivery id,
the ``delivery_jobs`` row's id) and are joined back to the event, and so to its Kafka CreateTime,
through the database.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import tempfile
import statistics
import time
import uuid
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import UTC, datetime

import orjson
import psycopg

from bench._ingest_setup import (
    EVENT_TYPE, PARTITIONS, ROOT, TENANTS, Producer, Record, Scratch, build_records, delete_kafka, new_topic, retenant,
)
from bench._processes import ingest_workers, worker_processes
from bench._receiver import SECRET, Nginx, vm_hwm_mb
from hub.kafka import admin_client

STUB_EXIT = 2  # `hub deliver` exits 2 while this build has no delivery sinks


@dataclass
class HubRun:
    """One hub measurement: deliveries/s, latency p50/p99 (ms), peak RSS of each deliver process (MB)."""

    rate: float | None = None
    p50: float | None = None
    p99: float | None = None
    rss_mb: list[float] = field(default_factory=list)


def hub_env(scratch: Scratch, nginx: Nginx, prefix: str, group: str) -> dict[str, str]:
    """The environment of the bench's hub processes: scratch database, loopback allowed, nginx's CA trusted."""
    return {**os.environ, "HUB_DATABASE_URL": scratch.url, "HUB_KAFKA_TOPIC_PREFIX": prefix,
            "HUB_KAFKA_CONSUMER_GROUP": group, "HUB_KAFKA_DLQ_GROUP": f"{group}-dlq",
            "HUB_EGRESS_ALLOW_CIDRS": "127.0.0.0/8", "HUB_WEBHOOK_CA_BUNDLE": str(nginx.ca_path),
            "HUB_INGEST_METRICS_PORT": "0", "HUB_LOG_LEVEL": "WARNING"}


def probe_deliver(env: dict[str, str], wait_seconds: float = 5.0) -> tuple[bool, str]:
    """Whether ``hub deliver`` is a real worker: (True, "") when it keeps running, else (False, why)."""
    with tempfile.TemporaryFile() as log:
        process = subprocess.Popen([sys.executable, "-m", "workers.cli", "deliver"], cwd=ROOT, env=env,
                                   stdout=subprocess.DEVNULL, stderr=log)
        try:
            code = process.wait(wait_seconds)
        except subprocess.TimeoutExpired:
            process.terminate()
            try:
                process.wait(30)
            except subprocess.TimeoutExpired:
                process.kill()
            return True, ""
        log.seek(0)
        said = log.read().decode(errors="replace").strip().splitlines()
    if code == STUB_EXIT:
        return False, f"`hub deliver` exited 2 ({said[-1] if said else 'no message'})"
    return False, f"`hub deliver` exited {code}: {' | '.join(said[-5:])}"


def reset_webhooks(scratch: Scratch, tenants: list[str], per_tenant: int, nginx: Nginx) -> None:
    """Empty the tables, then K active webhook subscriptions per tenant at nginx, each with a sealed secret."""
    from hub.secrets import seal
    from hub.subscription.service import secret_context

    now = datetime.now(UTC)
    with psycopg.connect(scratch.dsn) as conn:
        conn.execute("TRUNCATE event_log, delivery_jobs, delivery_attempts, tenant_counters, "
                     "pull_eligibility_hourly, ingest_worker_heartbeats, subscriptions CASCADE")
        for tenant in tenants:
            for i in range(per_tenant):
                sub_id = uuid.uuid4()
                conn.execute(
                    "INSERT INTO subscriptions (id, tenant_id, name, sink_kind, endpoint, event_types, "
                    "signature_version, plan_tier, enabled, verification_state, credential_kind, auto_disabled, "
                    "disabled_reason, secret_current, secret_rotated_at, created_at, updated_at) VALUES (%s, %s, %s, "
                    "'webhook', %s, %s, 'v1', 'standard', true, 'active', 'signing_secret', false, '', %s, %s, %s, %s)",
                    (sub_id, tenant, f"bench-{i}", f"{nginx.url}{tenant}/{i}", orjson.dumps([EVENT_TYPE]).decode(),
                     seal(SECRET, context=secret_context(sub_id, "secret_current")), now, now, now))
        conn.execute("INSERT INTO subscription_versions (id, version) VALUES (1, 1) "
                     "ON CONFLICT (id) DO UPDATE SET version = subscription_versions.version + 1")


def deliver_workers(env: dict[str, str], count: int):  # noqa: ANN201 (a context manager)
    """COUNT real ``hub deliver`` processes; their logs shown on failure."""
    return worker_processes([[sys.executable, "-m", "workers.cli", "deliver"] for _ in range(count)], env)


def delete_prefixed(prefix: str, groups: list[str]) -> None:
    """Delete every topic under PREFIX (the hub's own topics too) and the GROUPS."""
    topics = [name for name in admin_client().list_topics(timeout=15).topics if name.startswith(prefix)]
    delete_kafka(topics, groups)


def count_jobs(dsn: str) -> int:
    with psycopg.connect(dsn) as conn:
        return conn.execute("SELECT count(*) FROM delivery_jobs").fetchone()[0]


def wait_for(check, what: str, timeout: float, procs: list[subprocess.Popen]) -> None:
    """Poll CHECK until it is true; fail when TIMEOUT passes or a worker exits."""
    deadline = time.monotonic() + timeout
    while not check():
        if time.monotonic() > deadline:
            raise RuntimeError(f"timed out waiting for {what}")
        if any(proc.poll() is not None for proc in procs):
            raise RuntimeError(f"a hub process exited while waiting for {what}")
        time.sleep(0.1)


def _job_id(webhook_id: str) -> uuid.UUID | None:
    """The delivery_jobs id a webhook-id names (the id itself, or the id after a prefix)."""
    try:
        return uuid.UUID(webhook_id[-36:])
    except ValueError:
        return None


STAGES_SQL = """
SELECT j.id, e.kafka_partition, e.kafka_offset, EXTRACT(EPOCH FROM e.received_at) * 1000,
       EXTRACT(EPOCH FROM min(a.attempted_at)) * 1000, EXTRACT(EPOCH FROM j.updated_at) * 1000
  FROM delivery_jobs j JOIN event_log e ON e.tenant_id = j.tenant_id AND e.seq = j.event_seq
  JOIN delivery_attempts a ON a.job_id = j.id
 WHERE j.id = ANY(%s) GROUP BY j.id, e.kafka_partition, e.kafka_offset, e.received_at
"""
STAGES = ("kafka->ingest write", "ingest write->batch's first request", "batch's first->this request",
          "request->receipt")


def stage_split(dsn: str, receipts: dict[str, float], producer: Producer) -> dict[str, tuple[float, float]]:
    """p50/p99 ms of each stage: produce -> ingest's write (consumer fetch, batch window, decode),
    -> the first request of the job's claimed batch (ingest's COPY and COMMIT, the wake-up or poll, the
    claim's pacing and SQL, prepare), -> the job's own request (its wait behind the batch's earlier sends),
    -> nginx's receipt (the request). A batch is the jobs its settle stamped with one ``updated_at``.
    "slowest 1 %" is the mean of each stage over the 1 % of deliveries slowest end to end (the p99's makeup)."""
    split = _stage_rows(dsn, receipts, producer)
    if not split:
        return {}
    found = {name: _p50_p99([spans[i] for spans in split]) for i, name in enumerate(STAGES)}
    slowest = sorted(split, key=sum)[-max(1, len(split) // 100):]
    found["slowest 1 %"] = tuple(statistics.fmean(spans[i] for spans in slowest) for i in range(len(STAGES)))
    return found


def format_stages(stages: dict[str, tuple[float, ...]]) -> str:
    """One line of :func:`stage_split`'s figures."""
    return "; ".join(f"{name} {'/'.join(f'{v:.0f}' for v in values)}" for name, values in stages.items())


def _stage_rows(dsn: str, receipts: dict[str, float], producer: Producer) -> list[tuple[float, ...]]:
    """Each joined delivery's four stages (ms), in STAGES' order."""
    by_job = {job: wid for wid in receipts if (job := _job_id(wid)) is not None}
    with psycopg.connect(dsn) as conn:
        rows = conn.execute(STAGES_SQL, (list(by_job),)).fetchall()
    first: dict[float, float] = {}  # a batch's settle stamp -> its earliest request
    for *_, attempted, settled in rows:
        first[settled] = min(first.get(settled, float(attempted)), float(attempted))
    split = []
    for job, partition, offset, received, attempted, settled in rows:
        created = producer.created_ms.get((partition, offset))
        if created is not None:
            split.append((float(received) - created, first[settled] - float(received),
                          float(attempted) - first[settled], receipts[by_job[job]] - float(attempted)))
    return split


def _p50_p99(values: list[float]) -> tuple[float, float]:
    ordered = sorted(values)
    return ordered[len(ordered) // 2], ordered[min(len(ordered) - 1, int(len(ordered) * 0.99))]


def created_times(dsn: str, webhook_ids: list[str], producer: Producer) -> dict[str, float]:
    """webhook-id -> the Kafka CreateTime (epoch ms) of its event, through delivery_jobs and event_log."""
    by_job = {job: wid for wid in webhook_ids if (job := _job_id(wid)) is not None}
    with psycopg.connect(dsn) as conn:
        rows = conn.execute(
            "SELECT j.id, e.kafka_partition, e.kafka_offset FROM delivery_jobs j JOIN event_log e "
            "ON e.tenant_id = j.tenant_id AND e.seq = j.event_seq WHERE j.id = ANY(%s)", (list(by_job),)).fetchall()
    created = {}
    for job, partition, offset in rows:
        moment = producer.created_ms.get((partition, offset))
        if moment is not None:
            created[by_job[job]] = moment
    return created


class Session:
    """One scenario run's names: a fresh topic, group and tenants, on the shared scratch database."""

    def __init__(self, scratch: Scratch, nginx: Nginx, per_tenant: int) -> None:
        tag = uuid.uuid4().hex[:10]
        self.scratch, self.nginx = scratch, nginx
        self.prefix, self.group = f"benchd{tag}.", f"bench-deliver-{tag}"
        self.tenants = [f"benchd-{tag}-{i}" for i in range(TENANTS)]
        reset_webhooks(scratch, self.tenants, per_tenant, nginx)
        self.topic = new_topic(self.prefix)
        self.env = hub_env(scratch, nginx, self.prefix, self.group)

    def records(self, n: int, seed: int = 7) -> list[Record]:
        records = build_records(n, self.tenants, seed=seed)
        retenant(records, self.tenants)
        return records

    def close(self) -> None:
        delete_prefixed(self.prefix, [self.group])


def warm_up(session: Session, procs: list[subprocess.Popen], per_tenant: int) -> None:
    """One event per partition delivered end to end: every process is up and connected."""
    receipts = session.nginx.receipts(session.nginx.log_offset())
    records = build_records(PARTITIONS, session.tenants, seed=99)
    for i, record in enumerate(records):
        record.partition = i
    Producer().send(session.topic, records)
    wait_for(lambda: receipts.update() >= PARTITIONS * per_tenant, "the warm-up deliveries", 180, procs)


def throughput(scratch: Scratch, nginx: Nginx, per_tenant: int, deliveries: int, workers: int,
               shape: Callable[[Session], list[Record]] | None = None) -> HubRun:
    """Deliveries/s on a backlog: jobs written while the deliver workers are stopped, then released.
    ``shape``: the run's records (and any change to its subscriptions), instead of the default events."""
    session = Session(scratch, nginx, per_tenant)
    try:
        records = shape(session) if shape else session.records(max(1, deliveries // per_tenant))
        expected = len(records) * per_tenant
        with ingest_workers(scratch, session.prefix, session.group, 1) as ingest, \
                deliver_workers(session.env, workers) as delivers:
            warm_up(session, ingest + delivers, per_tenant)
            base = count_jobs(scratch.dsn)
            for proc in delivers:
                os.kill(proc.pid, signal.SIGSTOP)
            Producer().send(session.topic, records)
            wait_for(lambda: count_jobs(scratch.dsn) >= base + expected, "the delivery jobs", 300, ingest)
            receipts = nginx.receipts(nginx.log_offset())
            for proc in delivers:
                os.kill(proc.pid, signal.SIGCONT)
            wait_for(lambda: receipts.update() >= expected, "every delivery", max(120, expected / 100),
                     ingest + delivers)
            seen = sorted(receipts.seen.values())
            rss = [vm_hwm_mb(proc.pid) or 0.0 for proc in delivers]
        span = (seen[-1] - seen[0]) / 1000
        return HubRun(rate=(len(seen) - 1) / span if span > 0 else None, rss_mb=rss)
    finally:
        session.close()


def latency(scratch: Scratch, nginx: Nginx, rate: float, seconds: float, workers: int) -> HubRun:
    """p50/p99 of Kafka CreateTime -> nginx receipt, one subscription per event, at a steady RATE."""
    session = Session(scratch, nginx, 1)
    try:
        records = session.records(int(rate * seconds), seed=11)
        producer = Producer()
        with ingest_workers(scratch, session.prefix, session.group, 1) as ingest, \
                deliver_workers(session.env, workers) as delivers:
            warm_up(session, ingest + delivers, 1)
            tail = nginx.receipts(nginx.log_offset())
            producer.send(session.topic, records, rate=rate)
            wait_for(lambda: tail.update() >= len(records), "every delivery", 300, ingest + delivers)
            receipts = tail.seen
            rss = [vm_hwm_mb(proc.pid) or 0.0 for proc in delivers]
        created = created_times(scratch.dsn, list(receipts), producer)
        if not created:
            raise RuntimeError("no receipt could be joined to its event (is webhook-id the delivery_jobs id?)")
        p50, p99 = _p50_p99([receipts[wid] - moment for wid, moment in created.items()])
        stages = stage_split(scratch.dsn, receipts, producer)
        print("    stages p50/p99 ms: " + format_stages(stages), flush=True)
        return HubRun(p50=p50, p99=p99, rss_mb=rss)
    finally:
        session.close()

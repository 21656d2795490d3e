"""One chaos run: set up, traffic, the seeded faults, a drain, and the ledger."""

from __future__ import annotations

import os
import random
import shutil
import tempfile
import time
import uuid
from collections import Counter
from contextlib import ExitStack
from dataclasses import dataclass
from pathlib import Path

import orjson
import psycopg

from chaos import ledger as books
from chaos.aws import moto_timings, timings_line
from chaos.cluster import (
    Cluster,
    api_port,
    hub_env,
    private_services,
    wait_for_apis,
    wait_for_grpc,
)
from chaos.consumer import QueueConsumer, consumer_token, create_queue, left_in_queues
from chaos.faults import Targets, inject
from chaos.ordering import FIFO_NAME, ORDERED_NAME, ORDERED_NAMES, ORDERING, ordering_lines
from chaos.queues import Queues, queue_destinations
from chaos.receivers import TIMEOUT_MS, Hooks, webhook_receivers
from chaos.schedule import Fault, describe, make_schedule
from chaos.traffic import EVENT_TYPE, SOURCE, ApiLog, ApiProber, Producer, PullReader
from hub.auth.tokens import mint_token
from hub.backbone.outbound import topic_for
from hub.backbone.producer import shared_producer
from hub.config import get_settings
from hub.devtools.tree import DEFAULT_PERMISSIONS
from hub.kafka import ensure_topics

# A 5xx is allowed while the database is down and this long after it is back (pools reconnect).
DB_GRACE_SECONDS = 15.0
# Fast retries, short leases and a short hold recheck, so a run drains in a minute or two. The lease
# outlasts a try on the loaded machine (N105): at 200 events/s an SQS send took up to 7-11 s (the AWS
# client's read timeout is 10 s), and a try that outlives its lease is sent again by another worker.
DELIVER_SETTINGS = {"HUB_DELIVER_RETRY_LADDER_SECONDS": "0.5,1,1,2,2,3,3,3", "HUB_DELIVER_RETRY_JITTER": "0.2",
                    "HUB_DELIVER_LEASE_SECONDS": "15", "HUB_DELIVER_HOLD_RECHECK_SECONDS": "1",
                    "HUB_DELIVER_BATCH_SIZE": "100", "HUB_KAFKA_SESSION_TIMEOUT_MS": "6000",
                    "HUB_EGRESS_ALLOW_CIDRS": "127.0.0.0/8", "HUB_STARTUP_WAIT_SECONDS": "60"}


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


def full_plan(seed: int, faults: int = 30, rate: float = 10.0) -> Plan:
    return Plan(seed, faults, False, apis=2, ingests=2, delivers=3, rate=rate, drain_seconds=600.0)


def short_plan(seed: int, faults: int = 5, rate: float = 25.0) -> Plan:
    return Plan(seed, faults, True, apis=2, ingests=1, delivers=2, rate=rate, drain_seconds=75.0)


SUBSCRIPTION_SQL = """
INSERT INTO subscriptions (id, tenant_id, name, sink_kind, endpoint, event_types, timeout_ms, signature_version,
    plan_tier, enabled, verification_state, credential_kind, credential_sealed, auto_disabled, disabled_reason,
    secret_current, ordering, created_at, updated_at)
VALUES (%s, %s, %s, %s, %s, %s, %s, 'v1', 'standard', true, 'active', %s, %s, false, '', %s, %s, now(), now())"""


def add_subscriptions(dsn: str, tenant: str, hooks: Hooks, queues: Queues) -> str:
    """A subscription per webhook receiver, per queue and one pull subscription; returns the pull one's id."""
    from hub.secrets import mint_signing_secret, seal
    from hub.subscription.service import secret_context

    pull_id = uuid.uuid4()
    rows = [(f"hook-{host.split('.')[0]}", "webhook", hooks.url(host), None) for host in hooks.ports]
    rows += [*queues.subscriptions(), ("pull", "pull", f"pull://{pull_id}", None)]
    with psycopg.connect(dsn) as conn:
        for name, kind, endpoint, credential in rows:
            sub_id = pull_id if kind == "pull" else uuid.uuid4()
            secret = None if kind == "pull" else seal(mint_signing_secret(),
                                                       context=secret_context(sub_id, "secret_current"))
            sealed = seal(orjson.dumps(credential), context=secret_context(sub_id, "credential")) \
                if credential else None
            credential_kind = "static_credential" if credential else "signing_secret" if secret else "none"
            ordering = orjson.dumps(ORDERING).decode() if name in ORDERED_NAMES else None
            conn.execute(SUBSCRIPTION_SQL, (sub_id, tenant, name, kind, endpoint, orjson.dumps([EVENT_TYPE]).decode(),
                                            TIMEOUT_MS if kind == "webhook" else None, credential_kind, sealed,
                                            secret, ordering))
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
    cluster.add("grpc", api_port())
    cluster.add("relay")
    wait_for_apis(cluster.api_ports())
    wait_for_grpc(cluster.grpc_address())


@dataclass
class Session:
    """One run's parts: the plan and schedule, the cluster, the destinations, the tenant's names."""

    plan: Plan
    schedule: list[Fault]
    cluster: Cluster
    targets: Targets
    dsn: str
    tenant: str
    topic: str
    pull_id: str
    folder: Path  # the run's records: kept when the ledger does not balance


def run_faults(session: Session) -> list[tuple[float, float, str]]:
    """Carry out the schedule (each fault at its moment, or at once when the previous one overran);
    returns the windows (start, end + grace, kind) where API 5xx answers are allowed."""
    rng = random.Random(f"{session.plan.seed}:victims")
    started, windows = time.monotonic(), []
    for fault in session.schedule:
        while time.monotonic() < started + fault.at:
            revive(session.cluster)
            time.sleep(0.2)
        begin = time.monotonic()
        hit = inject(fault, session.cluster, session.targets, rng)
        end = time.monotonic()
        print(f"  fault #{fault.number:<3} {fault.kind:<19} on {hit:<22} t+{begin - started:6.1f}s "
              f"for {end - begin:5.1f}s", flush=True)
        if fault.kind == "restart_postgres":
            windows.append((begin, end + DB_GRACE_SECONDS, fault.kind))
    return windows


def revive(cluster: Cluster) -> None:
    for name in cluster.revive():
        print(f"  note: {name} exited on its own; restarted", flush=True)


@dataclass
class Traffic:
    """What the run sends and reads: the producer, the pull reader, the API prober, the consumer-queue
    client, and the log of API answers."""

    producer: Producer
    reader: PullReader
    prober: ApiProber
    consumer: QueueConsumer
    log: ApiLog

    def threads(self) -> tuple[Producer, PullReader, ApiProber, QueueConsumer]:
        return self.producer, self.reader, self.prober, self.consumer


def settled(session: Session, traffic: Traffic) -> bool:
    """Every produced event stored, every job settled, the reader caught up, every event acked (the
    events' ids are read only once the counts say the rest holds)."""
    stored, open_jobs = books.open_work(session.dsn, session.tenant)
    if stored < len(traffic.producer.acked) or open_jobs or len(traffic.reader.seen) < stored:
        return False
    return {ce_id for _, ce_id in books.stored_events(session.dsn, session.tenant)} <= set(traffic.consumer.acks())


def drain(session: Session, traffic: Traffic) -> None:
    """Wait until the work is settled (see ``settled``), for the plan's drain period at most."""
    traffic.producer.finish()
    deadline = time.monotonic() + session.plan.drain_seconds
    while time.monotonic() < deadline:
        revive(session.cluster)
        if settled(session, traffic):
            return
        time.sleep(1.0)
    print("  note: the drain period ended with work open", flush=True)


def received(session: Session) -> Counter[str]:
    """Every receipt at any destination, by job id (SQS's and EventBridge's by CloudEvent id, turned into
    the job id of that subscription)."""
    total = session.targets.hooks.received()
    total.update(session.targets.queues.rabbit_received())
    for name in ("sqs", FIFO_NAME, "eventbridge"):
        by_ce_id = books.job_ids_by_ce_id(session.dsn, session.tenant, name)
        total.update({by_ce_id.get(ce_id, ce_id): n for ce_id, n in session.targets.queues.aws_received(name).items()})
    return total


def account(session: Session, traffic: Traffic, windows: list[tuple[float, float, str]]) -> books.Ledger:
    ledger = books.Ledger()
    stored = books.stored_events(session.dsn, session.tenant)
    books.events_lines(ledger, traffic.producer.acked, stored)
    books.jobs_lines(ledger, books.jobs(session.dsn, session.tenant), len(stored), received(session))
    books.pull_lines(ledger, traffic.reader.seen, stored)
    left, dead = left_in_queues(session.targets.queues.node.url, traffic.consumer.queue_id)
    books.consumer_lines(ledger, traffic.consumer.acks(), stored, left, dead, traffic.consumer.ends)
    books.api_lines(ledger, traffic.log.entries, windows)
    lease = float(DELIVER_SETTINGS["HUB_DELIVER_LEASE_SECONDS"])
    ordering_lines(ledger, session.targets.hooks.receipts, session.dsn, session.tenant, ORDERED_NAME,
                   session.folder, lease)
    ordering_lines(ledger, session.targets.queues.fifo_receipts, session.dsn, session.tenant, FIFO_NAME,
                   session.folder, lease)
    timings = moto_timings(os.environ.get("HUB_AWS_ENDPOINT_URL", ""))
    (session.folder / "moto-timings.json").write_bytes(orjson.dumps(timings, option=orjson.OPT_INDENT_2))
    ledger.check("moto's own time per call (SQS, EventBridge)", timings_line(timings), True)
    exits = sum(child.unplanned_exits for children in session.cluster.processes.values() for child in children)
    ledger.check("processes that exited on their own", exits, True)
    return ledger


def run(plan: Plan) -> books.Ledger:
    """The whole run; prints the seed, the schedule, the faults as they land and the ledger."""
    schedule = make_schedule(plan.seed, plan.faults, short=plan.short)
    print(f"chaos: seed {plan.seed} (replay with --seed {plan.seed}), {len(schedule)} faults\n{describe(schedule)}",
          flush=True)
    folder = Path(tempfile.mkdtemp(prefix=f"hub-chaos-{plan.seed}-"))
    ledger: books.Ledger | None = None
    try:
        ledger = run_in(plan, schedule, folder)
        return ledger
    finally:
        keep_if_failed(folder, ledger)


def keep_if_failed(folder: Path, ledger: books.Ledger | None) -> None:
    """Remove the run's folder when its ledger balances; else keep it (the ledger, the ordering detail, the
    processes' and moto's logs, the receivers' notes) and say where."""
    if ledger is not None and ledger.balanced:
        shutil.rmtree(folder, ignore_errors=True)
    else:
        print(f"chaos: the run's records are kept in {folder}", flush=True)


def run_in(plan: Plan, schedule: list[Fault], folder: Path) -> books.Ledger:
    """Set up the services, the destinations and the subscriptions in FOLDER, then the traffic and faults."""
    tag, tenant = uuid.uuid4().hex[:8], f"chaos-{uuid.uuid4().hex[:8]}"
    started = time.monotonic()
    with ExitStack() as stack:
        postgres, kafka = stack.enter_context(private_services())
        hooks = stack.enter_context(webhook_receivers(plan.seed, folder))
        queues = stack.enter_context(queue_destinations(folder, tag))
        env = hub_env(postgres.url, kafka, tag, {**DELIVER_SETTINGS, "HUB_DNS_NAMESERVERS": hooks.dns.address,
                                                  "HUB_WEBHOOK_CA_BUNDLE": str(hooks.ca_bundle),
                                                  "HUB_RABBITMQ_URL": queues.node.url})
        os.environ.update(env)
        get_settings.cache_clear()
        topic = topic_for(SOURCE)
        ensure_topics([topic, get_settings().dlq_topic])
        dsn = postgres.url.replace("postgresql+psycopg://", "postgresql://", 1)
        pull_id = add_subscriptions(dsn, tenant, hooks, queues)
        print(f"  services and destinations ready ({time.monotonic() - started:.0f} s)", flush=True)
        cluster = Cluster(postgres, kafka, env, folder)
        stack.callback(cluster.stop_all)
        return traffic_and_faults(Session(plan, schedule, cluster, Targets(hooks, queues), dsn, tenant, topic,
                                          pull_id, folder))
    raise AssertionError("unreachable")


def start_traffic(session: Session) -> Traffic:
    """The run's durable consumer queue (made before the first event, so it gets every one), then the
    traffic threads, started."""
    token = mint_token(tenant=session.tenant, permissions=list(DEFAULT_PERMISSIONS), ttl_seconds=7200)
    consumer_token_ = consumer_token(session.tenant)
    queue_id = create_queue(session.cluster.grpc_address(), consumer_token_, EVENT_TYPE)
    log = ApiLog()
    traffic = Traffic(Producer(session.topic, session.tenant, session.plan.rate),
                      PullReader(session.cluster.api_ports(), token, session.pull_id, log),
                      ApiProber(session.cluster.api_ports(), token, log),
                      QueueConsumer(session.cluster.grpc_address(), consumer_token_, queue_id), log)
    session.targets.consumer = traffic.consumer
    for thread in traffic.threads():
        thread.start()
    return traffic


def traffic_and_faults(session: Session) -> books.Ledger:
    """Start the hub and the traffic, carry out the schedule, drain, and account."""
    started = time.monotonic()
    start_cluster(session.cluster, session.plan)
    print(f"  the hub is up ({time.monotonic() - started:.0f} s)", flush=True)
    traffic = start_traffic(session)
    try:
        windows = run_faults(session)
        drain(session, traffic)
    finally:
        for thread in traffic.threads():
            thread.halt()
        shared_producer().close()  # before the private broker goes away
    # The books are read still: a drain that ended with work open would otherwise keep the queue taps
    # reading what the delivery workers go on sending.
    session.cluster.stop_kind("deliver")
    ledger = account(session, traffic, windows)
    print(ledger.table(), flush=True)
    (session.folder / "ledger.txt").write_text(ledger.table() + "\n")
    return ledger

"""The queue-kind rows of ``bench/deliver.py --kinds``: Kafka → ``hub ingest`` → ``hub deliver`` → RabbitMQ,
SQS (moto) or EventBridge (moto), beside the destination's bare-client ceiling measured in the same run.
Not a bench of its own (``make bench`` skips it).

Per kind and K (1 and 10 subscriptions per event): 4 tenants, each with K active subscriptions of the
kind (a sealed static credential; the K subscriptions of a tenant point at K destinations shared by the
tenants). After a warm-up (one event per partition delivered end to end), the deliver workers are stopped
(SIGSTOP) while the events are produced and ingested into jobs, then resumed; the figure is jobs
delivered / seconds from the resume until every job reads ``delivered``. RabbitMQ's runs also check that
the queues hold as many messages as jobs were delivered. The ceiling is bench/_queue_bare.py's loop
sending the same number of messages to one destination.
"""

from __future__ import annotations

import argparse
import os
import signal
import statistics
import time
import uuid
from dataclasses import dataclass, field
from datetime import UTC, datetime

import orjson
import psycopg

from bench._deliver_hub import delete_prefixed, deliver_workers, wait_for
from bench._ingest_setup import (
    EVENT_TYPE, PARTITIONS, TENANTS, Producer, Scratch, build_records, new_topic, retenant,
)
from bench._processes import ingest_workers
from bench._queue_bare import bare_aws_rate, bare_pika_rate, drain_rabbit, queued
from hub.config import get_settings
from hub.secrets import mint_signing_secret, seal
from hub.sinks.vocabulary import SinkKind
from hub.subscription.service import secret_context
from devkit.destinations import STATIC_AWS, AwsDestinations, Rabbit, aws, unique

QUEUE_KINDS = ("rabbitmq", "sqs", "eventbridge")


@dataclass
class Destinations:
    """Ten destinations of one kind, their credential, and how to clean up."""

    kind: SinkKind
    endpoints: list[str]
    credential: dict
    rabbit: Rabbit | None = None
    aws_made: AwsDestinations = field(default_factory=AwsDestinations)

    @classmethod
    def make(cls, kind: SinkKind) -> Destinations:
        if kind is SinkKind.rabbitmq:
            rabbit = Rabbit(url=get_settings().rabbitmq_url)
            exchanges = [rabbit.exchange_with_queue(EVENT_TYPE)[0] for _ in range(10)]
            return cls(kind, [f"{exchange}/{EVENT_TYPE}" for exchange in exchanges], {"uri": rabbit.url}, rabbit)
        made = AwsDestinations()
        if kind is SinkKind.sqs:
            return cls(kind, [made.queue() for _ in range(10)], dict(STATIC_AWS), aws_made=made)
        for _ in range(10):
            bus = unique("benchbus")
            aws("events").create_event_bus(Name=bus)
            made.buses.append(bus)
        return cls(kind, list(made.buses), dict(STATIC_AWS), aws_made=made)

    def ceiling(self, messages: int, threads: int) -> float:
        """The bare client loop to the first destination (emptied afterwards)."""
        if self.rabbit is not None:
            rate = bare_pika_rate(self.rabbit.url, self.endpoints[0].split("/")[0], messages, EVENT_TYPE)
            drain_rabbit(self.rabbit)
            return rate
        return bare_aws_rate(self.kind, self.endpoints[0], messages, threads)

    def remove(self) -> None:
        if self.rabbit is not None:
            self.rabbit.remove()
        for queue in self.aws_made.queues:
            aws("sqs").delete_queue(QueueUrl=queue)
        for bus in self.aws_made.buses:
            aws("events").delete_event_bus(Name=bus)


def reset_queue_subscriptions(dsn: str, tenants: list[str], destinations: Destinations, per_tenant: int) -> None:
    """Empty the tables, then K active subscriptions of the kind per tenant, each with the sealed credential."""
    now = datetime.now(UTC)
    with psycopg.connect(dsn) as conn:
        conn.execute("TRUNCATE event_log, delivery_jobs, delivery_attempts, tenant_counters, "
                     "pull_eligibility_hourly, ingest_worker_heartbeats, subscriptions CASCADE")
        for tenant in tenants:
            for endpoint in destinations.endpoints[:per_tenant]:
                sub_id = uuid.uuid4()
                conn.execute(
                    "INSERT INTO subscriptions (id, tenant_id, name, sink_kind, endpoint, event_types, "
                    "signature_version, plan_tier, enabled, verification_state, credential_kind, credential_sealed, "
                    "secret_current, auto_disabled, disabled_reason, created_at, updated_at) VALUES (%s, %s, %s, %s, "
                    "%s, %s, 'v1', 'standard', true, 'active', 'static_credential', %s, %s, false, '', %s, %s)",
                    (sub_id, tenant, f"bench-{sub_id.hex[:8]}", destinations.kind.value, endpoint,
                     orjson.dumps([EVENT_TYPE]).decode(),
                     seal(orjson.dumps(destinations.credential), context=secret_context(sub_id, "credential")),
                     seal(mint_signing_secret(), context=secret_context(sub_id, "secret_current")), now, now))
        conn.execute("INSERT INTO subscription_versions (id, version) VALUES (1, 1) "
                     "ON CONFLICT (id) DO UPDATE SET version = subscription_versions.version + 1")


def delivered(dsn: str) -> int:
    with psycopg.connect(dsn) as conn:
        return conn.execute("SELECT count(*) FROM delivery_jobs WHERE state = 'delivered'").fetchone()[0]


def jobs(dsn: str) -> int:
    with psycopg.connect(dsn) as conn:
        return conn.execute("SELECT count(*) FROM delivery_jobs").fetchone()[0]


def failed_attempts(dsn: str) -> dict[str, int]:
    """Attempts that did not deliver, by error class (a retry waits 5 s, so any of them shows in the rate)."""
    with psycopg.connect(dsn) as conn:
        return dict(conn.execute("SELECT error_class, count(*) FROM delivery_attempts WHERE outcome <> 'delivered' "
                                 "GROUP BY error_class").fetchall())


def queue_env(scratch: Scratch, prefix: str, group: str) -> dict[str, str]:
    return {**os.environ, "HUB_DATABASE_URL": scratch.url, "HUB_KAFKA_TOPIC_PREFIX": prefix,
            "HUB_KAFKA_CONSUMER_GROUP": group, "HUB_KAFKA_DLQ_GROUP": f"{group}-dlq",
            "HUB_EGRESS_ALLOW_CIDRS": "127.0.0.0/8", "HUB_INGEST_METRICS_PORT": "0", "HUB_LOG_LEVEL": "WARNING",
            "AWS_ACCESS_KEY_ID": os.environ.get("AWS_ACCESS_KEY_ID", "bench"),
            "AWS_SECRET_ACCESS_KEY": os.environ.get("AWS_SECRET_ACCESS_KEY", "bench")}


def hub_rate(scratch: Scratch, destinations: Destinations, per_tenant: int, deliveries: int, workers: int) -> float:
    """Jobs delivered per second on a backlog written while the deliver workers were stopped."""
    tag = uuid.uuid4().hex[:10]
    prefix, group = f"benchq{tag}.", f"bench-queues-{tag}"
    tenants = [f"benchq-{tag}-{i}" for i in range(TENANTS)]
    reset_queue_subscriptions(scratch.dsn, tenants, destinations, per_tenant)
    topic = new_topic(prefix)
    try:
        records = build_records(max(1, deliveries // per_tenant), tenants)
        retenant(records, tenants)
        warm = build_records(PARTITIONS, tenants, seed=99)
        for i, record in enumerate(warm):
            record.partition = i
        with ingest_workers(scratch, prefix, group, 1) as ingest, \
                deliver_workers(queue_env(scratch, prefix, group), workers) as delivers:
            Producer().send(topic, warm)
            wait_for(lambda: delivered(scratch.dsn) >= len(warm) * per_tenant, "the warm-up", 180, ingest + delivers)
            base = delivered(scratch.dsn)
            for proc in delivers:
                os.kill(proc.pid, signal.SIGSTOP)
            Producer().send(topic, records)
            expected = len(records) * per_tenant
            wait_for(lambda: jobs(scratch.dsn) >= base + expected, "the delivery jobs", 300, ingest)
            start = time.perf_counter()
            for proc in delivers:
                os.kill(proc.pid, signal.SIGCONT)
            wait_for(lambda: delivered(scratch.dsn) >= base + expected, "every delivery", max(300, expected / 20),
                     ingest + delivers)
            rate = expected / (time.perf_counter() - start)
        failed = failed_attempts(scratch.dsn)
        if failed:
            print(f"  failed attempts (retried): {failed}", flush=True)
        if destinations.rabbit is not None:
            arrived = queued(destinations.rabbit)
            assert arrived == base + expected, f"{arrived} messages in the queues, {base + expected} jobs delivered"
            drain_rabbit(destinations.rabbit)
        return rate
    finally:
        delete_prefixed(prefix, [group])


def queue_rows(args: argparse.Namespace) -> list[tuple[str, float, float]]:
    """(name, hub msg/s, bare msg/s) medians for every queue kind in ``args.kinds``, K = 1 and 10."""
    rows = []
    with Scratch() as scratch:
        for kind in (SinkKind(name) for name in args.kinds.split(",") if name in QUEUE_KINDS):
            destinations = Destinations.make(kind)
            messages = {SinkKind.rabbitmq: args.rabbit_deliveries, SinkKind.sqs: args.sqs_deliveries}.get(
                kind, args.eventbridge_deliveries)
            try:
                for per_tenant in (1, 10):
                    hub, bare = [], []
                    for run in range(1, args.repeat + 1):
                        hub.append(hub_rate(scratch, destinations, per_tenant, messages, args.deliver_workers))
                        bare.append(destinations.ceiling(messages, args.threads))
                        print(f"  run {run}: {kind.value} x{per_tenant}: hub {hub[-1]:,.0f} msg/s, "
                              f"bare {bare[-1]:,.0f} msg/s", flush=True)
                    rows.append((f"{kind.value} x{per_tenant}", statistics.median(hub), statistics.median(bare)))
            finally:
                destinations.remove()
    return rows


def print_queue_table(rows: list[tuple[str, float, float]], repeat: int, workers: int) -> None:
    print(f"\nqueue kinds end to end (Kafka -> hub ingest -> {workers} hub deliver), medians of {repeat} run(s)")
    print("| destination (subscriptions/event) | hub msg/s | bare client msg/s | hub / bare |")
    print("|---|---:|---:|---:|")
    for name, hub, bare in rows:
        print(f"| {name} | {hub:,.0f} | {bare:,.0f} | {hub / bare:.2f} |")


"""What bench/ingest.py stands on: records, a scratch database, topics, producers, a visibility poller.

Not a bench of its own (``make bench`` skips ``bench/_*.py``).
"""

from __future__ import annotations

import os
import random
import subprocess
import sys
import threading
import time
import uuid
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from pathlib import Path

import orjson
import psycopg

from hub.config import get_settings
from hub.kafka import admin_client, ensure_topics, make_producer

ROOT = Path(__file__).resolve().parent.parent
PARTITIONS = 6
TENANTS = 4
EVENT_TYPE = "transaction.posted"
POLL_SECONDS = 0.02
# Payload filters (docs/contract-notes.md N53) that every bench event passes, one per operator family,
# so a filtered run writes the same jobs as an unfiltered one and differs only by evaluating them.
MATCHING_FILTERS = [
    {"data.status": "posted"},
    {"data.amount.currency": {"$in": ["BRL", "USD", "EUR"]}},
    {"data.accountId": {"$prefix": "acc-"}},
    {"data.amount.scale": {"$gte": 2, "$lt": 4}},
    {"data.metadata.ref": {"$exists": True}, "source": "ledger"},
    {"$or": [{"data.direction": "debit"}, {"data.direction": "credit"}]},
    {"$not": {"data.status": "reversed"}},
    {"$and": [{"data.counterpartyId": {"$prefix": "acc-"}}, {"data.amount.scale": {"$gt": 0}}]},
    {"data.metadata.channel": {"$in": ["app", "api", "branch"]}},
    {"type": {"$prefix": "transaction."}, "data.transactionId": {"$exists": True}},
]


# -- events ------------------------------------------------------------------------------------------
@dataclass
class Record:
    key: bytes
    value: bytes
    headers: list[tuple[str, bytes]]
    partition: int


def build_records(n: int, tenants: list[str], seed: int = 7) -> list[Record]:
    """N binary-mode CloudEvents with ~320 bytes of realistic JSON data, spread over 6 partitions."""
    rng = random.Random(seed)
    base = datetime(2025, 1, 1, tzinfo=UTC)
    records = []
    for i in range(n):
        account = rng.randrange(5000)
        data = {
            "transactionId": str(uuid.UUID(int=rng.getrandbits(128), version=4)),
            "accountId": f"acc-{account:06d}",
            "counterpartyId": f"acc-{rng.randrange(5000):06d}",
            "amount": {"value": f"{rng.randrange(1, 10_000_000) / 100:.2f}", "currency": "BRL", "scale": 2},
            "direction": rng.choice(("debit", "credit")),
            "status": "posted",
            "description": rng.choice(("PIX transfer", "card purchase", "boleto payment", "fee")),
            "postedAt": (base + timedelta(seconds=i)).isoformat(),
            "metadata": {"channel": rng.choice(("app", "api", "branch")), "ref": f"r{rng.getrandbits(40):x}"},
        }
        headers = [
            ("ce_specversion", b"1.0"),
            ("ce_id", str(uuid.UUID(int=rng.getrandbits(128), version=4)).encode()),
            ("ce_source", b"ledger"),
            ("ce_type", EVENT_TYPE.encode()),
            ("ce_time", (base + timedelta(seconds=i)).isoformat().encode()),
            ("ce_tenantid", tenants[i % len(tenants)].encode()),
            ("content-type", b"application/json"),
        ]
        records.append(Record(f"acc-{account:06d}".encode(), orjson.dumps(data), headers, account % PARTITIONS))
    return records


def retenant(records: list[Record], tenants: list[str]) -> None:
    """Point the records at a run's fresh tenants (record i goes to tenant i % len)."""
    for i, record in enumerate(records):
        record.headers[5] = ("ce_tenantid", tenants[i % len(tenants)].encode())


# -- database ------------------------------------------------------------------------------------------
def libpq(url: str) -> str:
    return url.replace("postgresql+psycopg://", "postgresql://", 1)


class Scratch:
    """A scratch database migrated to head, dropped on exit."""

    def __init__(self) -> None:
        self.base_url = get_settings().database_url
        self.name = f"hub_bench_{uuid.uuid4().hex[:10]}"
        head, _, tail = self.base_url.rpartition("/")
        query = "?" + tail.split("?", 1)[1] if "?" in tail else ""
        self.url = f"{head}/{self.name}{query}"  # SQLAlchemy form, for the workers
        self.dsn = libpq(self.url)

    def __enter__(self) -> Scratch:
        with psycopg.connect(libpq(self.base_url), autocommit=True) as conn:
            conn.execute(f'CREATE DATABASE "{self.name}"')
        try:
            subprocess.run([sys.executable, "-m", "hub.cli", "migrate"], check=True, cwd=ROOT,
                           env={**os.environ, "HUB_DATABASE_URL": self.url}, stdout=subprocess.DEVNULL)
        except BaseException:
            self.__exit__()
            raise
        return self

    def __exit__(self, *_exc: object) -> None:
        # FORCE cannot end an autovacuum worker (a superuser's process) on the scratch database: that
        # refusal is retried while the worker finishes, then left as a warning, never a failed bench.
        for attempt in range(10):
            try:
                with psycopg.connect(libpq(self.base_url), autocommit=True) as conn:
                    conn.execute(f'DROP DATABASE IF EXISTS "{self.name}" WITH (FORCE)')
                return
            except psycopg.errors.InsufficientPrivilege:
                time.sleep(0.5 * (attempt + 1))
        print(f"warning: scratch database {self.name} left behind (an autovacuum worker held it)", file=sys.stderr)

    def reset(self, tenants: list[str], subs_per_tenant: int, filtered: bool = False) -> None:
        """Empty the ingest tables, then K webhook subscriptions per tenant matching every bench event
        (``filtered``: each with one of :data:`MATCHING_FILTERS`, which every bench event passes)."""
        now = datetime.now(UTC)
        with psycopg.connect(self.dsn) as conn:
            conn.execute("TRUNCATE event_log, delivery_jobs, tenant_counters, pull_eligibility_hourly, "
                         "ingest_worker_heartbeats, subscriptions CASCADE")
            for tenant in tenants:
                for i in range(subs_per_tenant):
                    conn.execute(
                        "INSERT INTO subscriptions (id, tenant_id, name, sink_kind, endpoint, event_types, "
                        "signature_version, plan_tier, enabled, verification_state, credential_kind, "
                        "auto_disabled, disabled_reason, created_at, updated_at, payload_filter) VALUES (%s, %s, %s, "
                        "'webhook', %s, %s, 'v1', 'standard', true, 'active', 'none', false, '', %s, %s, %s)",
                        (uuid.uuid4(), tenant, f"bench-{i}", f"https://hooks.example/{tenant}/{i}",
                         orjson.dumps([EVENT_TYPE]).decode(), now, now,
                         orjson.dumps(MATCHING_FILTERS[i % len(MATCHING_FILTERS)]).decode() if filtered else None))
            conn.execute("INSERT INTO subscription_versions (id, version) VALUES (1, 1) "
                         "ON CONFLICT (id) DO UPDATE SET version = subscription_versions.version + 1")


# -- kafka ---------------------------------------------------------------------------------------------
def delete_kafka(topics: list[str], groups: list[str]) -> None:
    """Best effort: a bench leaves no topic or group behind."""
    admin = admin_client()
    futures = list(admin.delete_topics(topics, operation_timeout=30).values()) if topics else []
    try:
        futures += list(admin.delete_consumer_groups(groups, request_timeout=30).values()) if groups else []
    except Exception:  # noqa: BLE001 (an unknown group)
        pass
    for future in futures:
        try:
            future.result(timeout=30)
        except Exception:  # noqa: BLE001 (already gone)
            pass


class Producer:
    """One bench producer; remembers each record's CreateTime (ms) by (partition, offset)."""

    def __init__(self) -> None:
        # linger.ms 5: the feed keeps the batching its figures were taken with (the hub's default is 1, N90).
        self.client = make_producer(**{"queue.buffering.max.messages": 1_000_000,
                                       "queue.buffering.max.kbytes": 1_048_576, "linger.ms": 5})
        self.created_ms: dict[tuple[int, int], int] = {}

    def _report(self, err, msg) -> None:
        if err is not None:
            raise RuntimeError(f"produce failed: {err}")
        self.created_ms[(msg.partition(), msg.offset())] = msg.timestamp()[1]

    def send(self, topic: str, records: list[Record], *, rate: float = 0.0) -> None:
        """Produce every record (paced at ``rate`` records/s when given) and wait for every ack."""
        started = time.perf_counter()
        for i, record in enumerate(records):
            if rate and i % 50 == 0:
                ahead = started + i / rate - time.perf_counter()
                if ahead > 0:
                    time.sleep(ahead)
            while True:
                try:
                    self.client.produce(topic, value=record.value, key=record.key, headers=record.headers,
                                        partition=record.partition, on_delivery=self._report)
                    break
                except BufferError:
                    self.client.poll(0.05)
            if i % 500 == 0:
                self.client.poll(0)
        if self.client.flush(60) != 0:
            raise RuntimeError("producer did not flush")


# -- visibility ----------------------------------------------------------------------------------------
@dataclass
class Visibility:
    """Polls the event log every 20 ms and notes when each (partition, offset) became readable.

    A row is readable once its batch's transaction committed, so ``seen`` minus the record's
    CreateTime is produce → committed latency, give or take one poll interval.
    """

    dsn: str
    tenants: list[str]
    seen: dict[tuple[int, int], float] = field(default_factory=dict)
    _stop: threading.Event = field(default_factory=threading.Event)
    _thread: threading.Thread | None = None

    def _poll(self) -> None:
        after = {tenant: 0 for tenant in self.tenants}
        with psycopg.connect(self.dsn, autocommit=True) as conn:
            while not self._stop.is_set():
                rows = conn.execute(
                    "SELECT e.tenant_id, e.seq, e.kafka_partition, e.kafka_offset "
                    "FROM unnest(%s::text[], %s::bigint[]) AS t(tenant, after) "
                    "JOIN event_log e ON e.tenant_id = t.tenant AND e.seq > t.after",
                    (list(after), list(after.values()))).fetchall()
                now = time.time() * 1000
                for tenant, seq, partition, offset in rows:
                    self.seen.setdefault((partition, offset), now)
                    after[tenant] = max(after[tenant], seq)
                self._stop.wait(POLL_SECONDS)

    def start(self) -> None:
        self._thread = threading.Thread(target=self._poll, daemon=True)
        self._thread.start()

    def wait(self, expected: int, timeout: float, workers: list[subprocess.Popen]) -> float:
        """Block until ``expected`` rows were seen; returns when (epoch ms) the last one was."""
        deadline = time.monotonic() + timeout
        while len(self.seen) < expected:
            if time.monotonic() > deadline:
                raise RuntimeError(f"only {len(self.seen)} of {expected} events stored after {timeout:.0f}s")
            if any(worker.poll() is not None for worker in workers):
                raise RuntimeError("an ingest worker exited")
            time.sleep(POLL_SECONDS)
        return max(self.seen.values())

    def stop(self) -> None:
        self._stop.set()
        if self._thread is not None:
            self._thread.join(10)


def new_topic(prefix: str) -> str:
    topic = f"{prefix}ledger"
    ensure_topics([topic], partitions=PARTITIONS)
    return topic

"""What the ingest fault test stands on: its plan of records and poison, an at-least-once producer, the
worker processes it kills, the chaos thread, and reading the topics back."""

from __future__ import annotations

import json
import os
import random
import signal
import subprocess
import threading
import time
import uuid
from collections import Counter
from datetime import UTC, datetime
from pathlib import Path

from confluent_kafka import Consumer, KafkaError, KafkaException, Producer, TopicPartition
from confluent_kafka.admin import AdminClient

from devkit.kafka import ScratchKafka
from devkit.offsets import broker_not_ready
from devkit.processes import start_hub, stop

EVENTS = 20_000
PARTITIONS = 6
CHUNK = 250
CHUNK_PAUSE = 0.25  # spreads production over ~25 s so the chaos lands while records arrive
MAX_RECORD_BYTES = 65_536
MIN_KILLS = 5
POISON_KINDS = {"garbage": 12, "no_tenant": 12, "bad_json": 12, "oversize": 6}
TEST_HEADER = "x-fault-test"
SETTLE_SECONDS = 150.0


# -- records -----------------------------------------------------------------------------------------
def _binary(tenant: str, source: str, ce_id: str, n: int) -> tuple[bytes, list[tuple[str, bytes]]]:
    headers = [("ce_specversion", b"1.0"), ("ce_id", ce_id.encode()), ("ce_source", source.encode()),
               ("ce_type", b"transaction.posted"), ("ce_tenantid", tenant.encode()),
               ("ce_time", datetime.now(UTC).isoformat().encode()), ("content-type", b"application/json")]
    return json.dumps({"n": n, "amount": n % 97}).encode(), headers


def _structured(tenant: str, source: str, ce_id: str, n: int) -> tuple[bytes, list[tuple[str, bytes]]]:
    envelope = {"specversion": "1.0", "id": ce_id, "source": source, "type": "account.created",
                "tenantid": tenant, "time": datetime.now(UTC).isoformat(), "schemaversion": "2.1.0",
                "datacontenttype": "application/json", "data": {"n": n}}
    return json.dumps(envelope).encode(), [("content-type", b"application/cloudevents+json")]


def _poison(kind: str, tenant: str, n: int) -> tuple[bytes, list[tuple[str, bytes]], str]:
    """(value, headers, the tenant the worker can read from it or "")."""
    ce_id = f"poison-{n}"
    if kind == "garbage":
        return b"\xff\xfe\x00 not a cloud event " + os.urandom(16), [
            ("content-type", b"application/cloudevents+json")], ""
    if kind == "no_tenant":
        value, headers = _structured(tenant, "ledger", ce_id, n)
        envelope = json.loads(value)
        envelope.pop("tenantid")
        return json.dumps(envelope).encode(), headers, ""
    if kind == "bad_json":
        _value, headers = _binary(tenant, "ledger", ce_id, n)
        return b"{this is not json", headers, tenant
    if kind == "oversize":
        _value, headers = _binary(tenant, "ledger", ce_id, n)
        return json.dumps({"blob": "x" * (MAX_RECORD_BYTES + 4096)}).encode(), headers, tenant
    raise AssertionError(kind)


def _plan(tenants: list[str], rng: random.Random) -> tuple[list[tuple], Counter]:
    """The records in production order: ("event", key, value, headers) or ("poison", ...)."""
    records: list[tuple] = []
    kinds: Counter[str] = Counter()
    produced_events: list[tuple[str, str, str]] = []
    poison_slots = {rng.randrange(EVENTS): kind for kind, count in POISON_KINDS.items() for _ in range(count)}
    while len(poison_slots) < sum(POISON_KINDS.values()):  # a collision of random slots: place the rest
        for kind, count in POISON_KINDS.items():
            while Counter(poison_slots.values())[kind] < count:
                poison_slots[rng.randrange(EVENTS)] = kind
    for n in range(EVENTS):
        tenant = tenants[n % len(tenants)]
        if n in poison_slots:
            kind = poison_slots[n]
            value, headers, readable = _poison(kind, tenant, n)
            kinds[kind] += 1
            tag = f"poison:{kind}:{n}:{readable}".encode()
            records.append(("poison", f"{tenant}:{n % 40}".encode(), value, headers + [(TEST_HEADER, tag)]))
            continue
        if produced_events and rng.random() < 0.02:  # a deliberate duplicate of an earlier event
            tenant, source, ce_id = rng.choice(produced_events[-500:])
        else:
            # the same id under another tenant or source is another event (N19)
            source = "ledger" if n % 7 else "ledger-batch"
            ce_id = f"ev-{n // 3}" if n % 11 == 0 else str(uuid.uuid4())
        produced_events.append((tenant, source, ce_id))
        build = _binary if n % 2 else _structured
        value, headers = build(tenant, source, ce_id, n)
        records.append(("event", f"{tenant}:{n % 40}".encode(), value,
                        headers + [(TEST_HEADER, f"event:{tenant}:{source}:{ce_id}".encode())]))
    return records, kinds


# -- an at-least-once producer -----------------------------------------------------------------------
class ResilientProducer:
    """acks=all + idempotence; a record whose delivery failed is produced again until it is acked."""

    def __init__(self, bootstrap: str, topic: str) -> None:
        self.topic = topic
        self.producer = Producer({"bootstrap.servers": bootstrap, "acks": "all", "enable.idempotence": True,
                                  "linger.ms": 10, "message.timeout.ms": 8000, "log_level": 0,
                                  "message.max.bytes": 2_000_000})
        self.failed: list[tuple] = []
        self.acked = 0
        self.reproduced = 0

    def produce(self, record: tuple) -> None:
        _kind, key, value, headers = record

        def delivered(error: KafkaError | None, _message: object) -> None:
            if error is None:
                self.acked += 1
            else:
                self.failed.append(record)

        while True:
            try:
                self.producer.produce(self.topic, key=key, value=value, headers=headers, on_delivery=delivered)
                break
            except BufferError:
                self.producer.poll(0.5)
        self.producer.poll(0)

    def retry_failed(self) -> None:
        failed, self.failed = self.failed, []
        self.reproduced += len(failed)
        for record in failed:
            self.produce(record)

    def flush_all(self, timeout: float = 120.0) -> None:
        """Until every record was acknowledged: flush, then produce again what failed."""
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            self.producer.flush(10)
            if not self.failed and len(self.producer) == 0:
                return
            self.retry_failed()
        raise AssertionError(f"producer could not deliver {len(self.failed) + len(self.producer)} records")


# -- child processes and chaos -----------------------------------------------------------------------
class Workers:
    """Two `hub ingest` children in one group; any that exits is restarted (as a supervisor would)."""

    def __init__(self, env: dict[str, str], logs: Path, count: int = 2) -> None:
        self.env = env
        self.logs = logs
        self.procs: list[subprocess.Popen | None] = [None] * count
        self.kills = 0
        self.exits = 0  # exited on their own (e.g. start-up preflight while the broker was down)
        self.lock = threading.Lock()
        self._starts = 0

    def start(self, index: int) -> None:
        self._starts += 1
        log = open(self.logs / f"ingest-{index}-{self._starts}.log", "wb")
        self.procs[index] = start_hub("ingest", self.env, stderr=log)
        log.close()

    def start_all(self) -> None:
        for index in range(len(self.procs)):
            self.start(index)

    def kill(self, index: int) -> None:
        with self.lock:
            process = self.procs[index]
            if process is not None and process.poll() is None:
                os.kill(process.pid, signal.SIGKILL)
                process.wait(10)
                self.kills += 1
            self.start(index)

    def supervise(self) -> None:
        with self.lock:
            for index, process in enumerate(self.procs):
                if process is not None and process.poll() is not None:
                    self.exits += 1
                    self.start(index)

    def stop_all(self) -> None:
        with self.lock:
            for process in self.procs:
                if process is not None and process.poll() is None:
                    stop(process)


def chaos(workers: Workers, broker: ScratchKafka, rng: random.Random, done: threading.Event,
          tally: dict[str, int], errors: list[BaseException]) -> None:
    """SIGKILL a random worker every 2.5–5 s (restarting it), and restart the broker once."""
    try:
        restart_after = rng.randint(2, 3)  # the broker goes down after this many kills
        while True:
            if not done.wait(rng.uniform(2.5, 5.0)):
                pass
            elif workers.kills >= MIN_KILLS and tally["broker_restarts"] >= 1:
                break
            else:
                time.sleep(rng.uniform(1.0, 2.5))  # production ended early: keep the chaos going
            workers.supervise()
            workers.kill(rng.randrange(len(workers.procs)))
            if workers.kills == restart_after and tally["broker_restarts"] == 0:
                broker.stop(kill=rng.random() < 0.5)
                time.sleep(rng.uniform(1.0, 3.0))
                broker.start()
                tally["broker_restarts"] += 1
    except BaseException as exc:  # noqa: BLE001 (reported by the test thread)
        errors.append(exc)


# -- reading back --------------------------------------------------------------------------------------
def _read_topic(bootstrap: str, topic: str) -> list:
    admin = AdminClient({"bootstrap.servers": bootstrap, "log_level": 0})
    partitions = admin.list_topics(topic, timeout=10).topics[topic].partitions
    consumer = Consumer({"bootstrap.servers": bootstrap, "group.id": f"reader-{uuid.uuid4().hex}",
                         "enable.auto.commit": False, "enable.partition.eof": True, "log_level": 0})
    try:
        consumer.assign([TopicPartition(topic, p, 0) for p in partitions])
        records, at_end = [], set()
        deadline = time.monotonic() + 60
        while len(at_end) < len(partitions) and time.monotonic() < deadline:
            for message in consumer.consume(500, timeout=1.0):
                if message.error() is None:
                    records.append(message)
                elif message.error().code() == KafkaError._PARTITION_EOF:
                    at_end.add(message.partition())
        assert len(at_end) == len(partitions), f"could not read {topic} to its end"
        return records
    finally:
        consumer.close()


def _lag(bootstrap: str, group: str, topic: str) -> int:
    """Records of ``topic`` that ``group`` has not committed yet (-1 while the broker cannot say)."""
    consumer = Consumer({"bootstrap.servers": bootstrap, "group.id": group, "log_level": 0})
    try:
        metadata = consumer.list_topics(topic, timeout=5)
        partitions = [TopicPartition(topic, p) for p in metadata.topics[topic].partitions]
        committed = consumer.committed(partitions, timeout=5)
        lag = 0
        for tp in committed:
            _low, high = consumer.get_watermark_offsets(TopicPartition(topic, tp.partition), timeout=5)
            lag += high - max(tp.offset, 0)
        return lag
    except KafkaException as exc:
        if broker_not_ready(exc):  # e.g. NOT_COORDINATOR while a restarted broker loads offsets
            return -1
        raise
    finally:
        consumer.close()


def _headers(message) -> dict[str, str]:
    return {name: (raw or b"").decode("utf-8", "replace") for name, raw in message.headers() or []}


def _headers_of(record: tuple) -> dict[str, str]:
    return {name: raw.decode("utf-8", "replace") for name, raw in record[3]}

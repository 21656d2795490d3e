"""Fault test: 20,000 CloudEvents through two `hub ingest` processes that keep being SIGKILLed.

A private broker (ScratchKafka) is restarted once mid-run, on the same ports and data directory, so
the shared broker and the other tests are not disturbed. The producer is itself at-least-once
(acks=all, idempotence, and whatever fails delivery is produced again), so the topic holds every
event at least once, some twice. Afterwards every (tenant, source, id) must be in ``event_log``
exactly once (N19), each tenant's seq must rise with the records' order in a partition, and every
poison record on the topic must have exactly one ``dlq_observations`` row (N20) and, when its tenant
could be read, exactly one ``poison`` attempt.
"""

from __future__ import annotations

import json
import os
import random
import shutil
import signal
import subprocess
import tempfile
import threading
import time
import uuid
from collections import Counter, defaultdict
from datetime import UTC, datetime
from pathlib import Path

import psycopg
import pytest
from confluent_kafka import Consumer, KafkaError, KafkaException, Producer, TopicPartition
from confluent_kafka.admin import AdminClient, NewTopic

from hub.db import libpq_url
from devkit.kafka import ScratchKafka
from devkit.offsets import broker_not_ready
from devkit.processes import start_hub, stop

pytestmark = pytest.mark.slow

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


def test_kill_nine_and_broker_restart_lose_and_duplicate_nothing():
    started = time.monotonic()
    rng = random.Random()
    run = uuid.uuid4().hex[:10]
    prefix = f"fault{run}."
    topic, dlq_topic = f"{prefix}ledger", f"{prefix}dlq"
    tenants = [f"t-fault-{run}-{letter}" for letter in "abcd"]
    records, poison_kinds = _plan(tenants, rng)
    expected_events = {tuple(_headers_of(record)[TEST_HEADER].split(":", 3)[1:])
                       for record in records if record[0] == "event"}
    logs = Path(tempfile.mkdtemp(prefix="hub-fault-logs-"))
    broker = ScratchKafka.create()
    workers: Workers | None = None
    observer: subprocess.Popen | None = None
    done = threading.Event()
    chaos_thread: threading.Thread | None = None
    tally = {"broker_restarts": 0}
    errors: list[BaseException] = []
    try:
        broker.start()
        admin = AdminClient({"bootstrap.servers": broker.bootstrap, "log_level": 0})
        for future in admin.create_topics([NewTopic(topic, PARTITIONS, 1), NewTopic(dlq_topic, 3, 1)]).values():
            future.result(30)
        env = {"HUB_KAFKA_BOOTSTRAP": broker.bootstrap, "HUB_KAFKA_TOPIC_PREFIX": prefix,
               "HUB_KAFKA_CONSUMER_GROUP": f"ingest-{prefix}", "HUB_KAFKA_DLQ_GROUP": f"dlq-{prefix}",
               "HUB_KAFKA_SESSION_TIMEOUT_MS": "6000", "HUB_KAFKA_MAX_RECORD_BYTES": str(MAX_RECORD_BYTES),
               "HUB_INGEST_RETRY_MAX_SECONDS": "2", "HUB_DLQ_PRODUCE_TIMEOUT_SECONDS": "10",
               "HUB_INGEST_BATCH_MAX_RECORDS": "500", "HUB_LOG_LEVEL": "INFO"}
        workers = Workers(env, logs)
        workers.start_all()
        observer_log = open(logs / "dlq-observer.log", "wb")
        observer = start_hub("dlq-observer", env, stderr=observer_log)
        observer_log.close()

        chaos_thread = threading.Thread(target=chaos, args=(workers, broker, rng, done, tally, errors),
                                        daemon=True)
        chaos_thread.start()
        producer = ResilientProducer(broker.bootstrap, topic)
        for start in range(0, len(records), CHUNK):
            for record in records[start:start + CHUNK]:
                producer.produce(record)
            producer.retry_failed()
            time.sleep(CHUNK_PAUSE)
        producer.flush_all()
        produced_at = time.monotonic() - started
        done.set()
        chaos_thread.join(120)
        assert not chaos_thread.is_alive(), "the chaos thread did not finish"
        assert not errors, f"chaos failed: {errors[0]!r}"
        if observer.poll() is not None:  # it exits when the broker is down at start-up only
            observer = start_hub("dlq-observer", env)

        # -- settle: both groups have committed everything, and the rows are there ------------------
        deadline = time.monotonic() + SETTLE_SECONDS
        ingest_lag = dlq_lag = -1
        while time.monotonic() < deadline:
            workers.supervise()
            ingest_lag = _lag(broker.bootstrap, env["HUB_KAFKA_CONSUMER_GROUP"], topic)
            dlq_lag = _lag(broker.bootstrap, env["HUB_KAFKA_DLQ_GROUP"], dlq_topic)
            if ingest_lag == 0 and dlq_lag == 0:
                break
            time.sleep(1.0)
        assert ingest_lag == 0 and dlq_lag == 0, f"not settled (ingest lag {ingest_lag}, dlq lag {dlq_lag}); {logs}"

        on_topic = _read_topic(broker.bootstrap, topic)
        on_dlq = _read_topic(broker.bootstrap, dlq_topic)
        with psycopg.connect(libpq_url()) as connection:
            stored = connection.execute(
                "SELECT tenant_id, source, ce_id, seq, kafka_partition, kafka_offset FROM event_log "
                "WHERE tenant_id = ANY(%s)", (tenants,)).fetchall()
            observed = connection.execute(
                "SELECT dlq_partition, dlq_offset, error_class, tenant_id_raw, producer_id FROM dlq_observations "
                "WHERE dlq_topic = %s", (dlq_topic,)).fetchall()
            attempts = dict(connection.execute(
                "SELECT tenant_id, count(*) FROM delivery_attempts WHERE tenant_id = ANY(%s) AND outcome = 'poison' "
                "GROUP BY tenant_id", (tenants,)).fetchall())
    finally:
        done.set()
        if chaos_thread is not None:
            chaos_thread.join(120)
        if workers is not None:
            workers.stop_all()
        if observer is not None:
            stop(observer)
        broker.destroy()

    # -- what is on the topic ------------------------------------------------------------------------
    poison_on_topic: dict[tuple[int, int], str] = {}  # source (partition, offset) -> tag
    copies = Counter()
    for message in on_topic:
        tag = _headers(message)[TEST_HEADER]
        copies[tag] += 1
        if tag.startswith("poison:"):
            poison_on_topic[(message.partition(), message.offset())] = tag
    produced_tags = Counter(_headers_of(record)[TEST_HEADER] for record in records)
    assert set(copies) == set(produced_tags), "a produced record is missing from the topic"

    # -- events: exactly once, seq per tenant unique and in partition order ------------------------------
    keys = Counter((tenant, source, ce_id) for tenant, source, ce_id, *_ in stored)
    duplicates = {key: n for key, n in keys.items() if n > 1}
    assert not duplicates, f"stored twice: {list(duplicates)[:5]}"
    missing = expected_events - set(keys)
    assert not missing, f"{len(missing)} events lost, e.g. {sorted(missing)[:3]}"
    assert set(keys) == expected_events, "event_log holds events that were not produced"
    by_tenant: dict[str, list[int]] = defaultdict(list)
    by_partition: dict[tuple[str, int], list[tuple[int, int]]] = defaultdict(list)
    for tenant, _source, _ce_id, seq, partition, offset in stored:
        by_tenant[tenant].append(seq)
        by_partition[(tenant, partition)].append((offset, seq))
    for tenant, seqs in by_tenant.items():
        assert len(seqs) == len(set(seqs)), f"{tenant} has a duplicate seq"
    for (tenant, partition), rows in by_partition.items():
        seqs = [seq for _offset, seq in sorted(rows)]
        assert all(a < b for a, b in zip(seqs, seqs[1:])), f"{tenant} seq not rising along partition {partition}"

    # -- poison: one observation per poison record on the topic -----------------------------------------
    dlq_by_coordinates = {(m.partition(), m.offset()): m for m in on_dlq}
    observations_per_source: Counter[tuple[int, int]] = Counter()
    for dlq_partition, dlq_offset, error_class, tenant_raw, _producer in observed:
        headers = _headers(dlq_by_coordinates[(dlq_partition, dlq_offset)])
        assert headers["dlq-source-topic"] == topic
        assert headers[TEST_HEADER].startswith("poison:"), f"a valid event was dead-lettered: {headers}"
        assert error_class in {"serialization", "validation"}
        source = (int(headers["dlq-source-partition"]), int(headers["dlq-source-offset"]))
        assert poison_on_topic.get(source) == headers[TEST_HEADER]
        assert tenant_raw == headers[TEST_HEADER].split(":")[3]
        observations_per_source[source] += 1
    # A worker killed between its dead-letter produce and its offset commit quarantines a record again:
    # every dead-letter record's source must be observed, once, however many copies the DLQ holds.
    dead_lettered = Counter((int(_headers(m)["dlq-source-partition"]), int(_headers(m)["dlq-source-offset"]))
                            for m in on_dlq)
    assert set(dead_lettered) == set(observations_per_source), "a dead-letter record was not observed"
    twice = {source: n for source, n in observations_per_source.items() if n != 1}
    assert not twice, f"poison observed more than once: {twice}"
    unobserved = set(poison_on_topic) - set(observations_per_source)
    assert not unobserved, f"poison never observed: {sorted(unobserved)[:5]}"
    readable = Counter(tag.split(":")[3] for tag in poison_on_topic.values() if tag.split(":")[3])
    assert {tenant: attempts.get(tenant, 0) for tenant in readable} == dict(readable)

    elapsed = time.monotonic() - started
    poison_produced = sum(poison_kinds.values())
    event_records = sum(1 for record in records if record[0] == "event")
    print(
        f"\nfault tally: produced {len(records)} records ({event_records} events, {poison_produced} poison "
        f"{dict(poison_kinds)}); unique events {len(expected_events)}; on topic {len(on_topic)} "
        f"(re-produced by the producer {producer.reproduced}); stored {len(stored)}; duplicates suppressed "
        f"{len(on_topic) - len(poison_on_topic) - len(stored)}; poison on topic {len(poison_on_topic)}; "
        f"dead-letter records {len(on_dlq)} ({sum(dead_lettered.values()) - len(dead_lettered)} re-quarantined "
        f"copies); observations {len(observed)}; poison attempts "
        f"{sum(attempts.values())}; kills {workers.kills}; worker self-exits {workers.exits}; "
        f"broker restarts {tally['broker_restarts']}; produced by {produced_at:.1f}s; elapsed {elapsed:.1f}s"
    )
    assert workers.kills >= MIN_KILLS
    assert tally["broker_restarts"] == 1
    shutil.rmtree(logs, ignore_errors=True)  # kept when the test fails: the children's logs are there


def _headers_of(record: tuple) -> dict[str, str]:
    return {name: raw.decode("utf-8", "replace") for name, raw in record[3]}

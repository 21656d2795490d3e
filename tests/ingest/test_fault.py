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

import random
import shutil
import subprocess
import tempfile
import threading
import time
import uuid
from collections import Counter, defaultdict
from pathlib import Path

import psycopg
import pytest
from confluent_kafka.admin import AdminClient, NewTopic

from hub.db import libpq_url
from devkit.kafka import ScratchKafka
from devkit.processes import start_hub, stop
from tests.ingest.fault_support import (
    CHUNK, CHUNK_PAUSE, MAX_RECORD_BYTES, MIN_KILLS, PARTITIONS, ResilientProducer, SETTLE_SECONDS, TEST_HEADER,
    Workers, _headers, _headers_of, _lag, _plan, _read_topic, chaos,
)

pytestmark = pytest.mark.slow


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

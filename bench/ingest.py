"""Ingest throughput and latency: real ``hub ingest`` workers against the real broker and database.

What it does, in one run:

* creates a scratch database (``CREATE DATABASE`` by the configured role, then ``hub migrate``
  against it), so the bench never touches the rows of the database it was pointed at; the scratch
  database is dropped at the end, and every topic and consumer group it created is deleted;
* per scenario and repetition: a fresh uniquely named topic ``<unique prefix>ledger`` with 6
  partitions (it matches the ingest pattern of that prefix), 4 fresh tenants, and K matching push
  (webhook) subscriptions per tenant, so every event fans out to K delivery jobs (K = 1 and 10);
* starts ``python -m hub.cli ingest`` child process(es) with env overrides (scratch database,
  unique topic prefix and consumer group), waits until a warm-up record on every partition has
  been stored (the worker has joined the group and owns the partitions), then produces N
  CloudEvents in binary mode (``ce_*`` headers, ``content-type: application/json``, ~300 bytes of
  JSON data, the account id as key) as fast as one producer can;
* ceilings, on the same machine in the same run: a bare confluent-kafka consumer reading the same
  records of the K = 1 topic (manual assignment from the beginning, touching value and headers, no
  decoding), and a bare PostgreSQL ``COPY`` of N rows decoded from the same records into a scratch
  copy of ``event_log`` (``LIKE event_log INCLUDING ALL``: same columns and indexes), one COPY in
  one transaction.

Figures, and exactly what they mean:

* **ev/s (ingest)** = N / (t_visible - t_first_produce): t_first_produce is taken just before the
  first ``produce()`` call; t_visible is when a polling query (every 20 ms, from the bench) first
  counts all N events in ``event_log``, i.e. after the last batch's transaction has committed
  (it can overshoot that commit by up to one poll interval). Producing is part of the wall time
  and the producer shares the 2 cores with the worker, so this is a sustained, saturated rate.
* **p50/p99 latency (ingest)** = ``event_log.received_at`` minus the record's Kafka timestamp
  (CreateTime, set by the producer when ``produce()`` is called; same host clock). ``received_at``
  is taken by the worker inside the batch's transaction just before its COPY, so this is "produced
  → being stored" and *under-states* produce → committed by the rest of that transaction (COPY of
  the events and jobs, counters, COMMIT; typically a few to a few tens of ms per 2,000-record batch).
  Because the producer outruns the worker, it includes queueing in Kafka: it is latency under
  saturation, not idle latency.
* **ev/s (bare consumer)** = records / (time from the first record received to the last one).
* **ev/s (bare COPY)** = N / (time of the COPY and its COMMIT).

Each measurement is repeated (``--repeat``, default 3) and medians are printed, with each
scenario's ratio to the bare-consumer and bare-COPY ceilings. Figures are wall-clock figures on a
shared machine: other processes (tests, other benches) using the same broker, database and CPUs
make them noisy; look at the individual runs printed above the table.

Run: ``python bench/ingest.py`` (``--quick``: 2,000 events, one repetition; ``--help``).
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import subprocess
import sys
import tempfile
import time
import uuid
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

import orjson  # noqa: E402
import psycopg  # noqa: E402
from confluent_kafka import OFFSET_BEGINNING, Consumer, TopicPartition  # noqa: E402

from hub.config import get_settings  # noqa: E402

PARTITIONS = 6
TENANTS = 4
EVENT_TYPE = "transaction.posted"
POLL_SECONDS = 0.02


# -- events ------------------------------------------------------------------------------------------
@dataclass
class Record:
    key: bytes
    value: bytes
    headers: list[tuple[str, bytes]]
    partition: int


def build_records(n: int, tenants: list[str], seed: int = 7) -> list[Record]:
    """N binary-mode CloudEvents with ~300 bytes of realistic JSON data, spread over 6 partitions."""
    rng = random.Random(seed)
    base = datetime(2025, 1, 1, tzinfo=UTC)
    records = []
    for i in range(n):
        account = rng.randrange(5000)
        tenant = tenants[i % len(tenants)]
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
            ("ce_tenantid", tenant.encode()),
            ("content-type", b"application/json"),
        ]
        records.append(Record(f"acc-{account:06d}".encode(), orjson.dumps(data), headers, account % PARTITIONS))
    return records


def retenant(records: list[Record], tenants: list[str]) -> None:
    """Point the records at this run's fresh tenants (tenant i % len is kept)."""
    for i, record in enumerate(records):
        record.headers[5] = ("ce_tenantid", tenants[i % len(tenants)].encode())


# -- infrastructure ------------------------------------------------------------------------------------
def libpq(url: str) -> str:
    return url.replace("postgresql+psycopg://", "postgresql://", 1)


def with_database(url: str, name: str) -> str:
    head, _, tail = url.rpartition("/")
    query = ""
    if "?" in tail:
        query = "?" + tail.split("?", 1)[1]
    return f"{head}/{name}{query}"


class Scratch:
    """A scratch database migrated to head, dropped on exit."""

    def __init__(self) -> None:
        self.base_url = get_settings().database_url
        self.name = f"hub_bench_{uuid.uuid4().hex[:10]}"
        self.url = with_database(self.base_url, self.name)  # SQLAlchemy form, for the children
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
        with psycopg.connect(libpq(self.base_url), autocommit=True) as conn:
            conn.execute(f'DROP DATABASE IF EXISTS "{self.name}" WITH (FORCE)')


def kafka_admin():
    from hub.kafka import admin_client

    return admin_client()


def delete_kafka(topics: list[str], groups: list[str]) -> None:
    admin = kafka_admin()
    if topics:
        for future in admin.delete_topics(topics, operation_timeout=30).values():
            try:
                future.result(timeout=30)
            except Exception:  # noqa: BLE001 (already gone)
                pass
    if groups:
        try:
            for future in admin.delete_consumer_groups(groups, request_timeout=30).values():
                try:
                    future.result(timeout=30)
                except Exception:  # noqa: BLE001
                    pass
        except Exception:  # noqa: BLE001
            pass


def create_topic(name: str) -> None:
    from hub.kafka import ensure_topics

    ensure_topics([name], partitions=PARTITIONS)


def producer():
    from hub.kafka import make_producer

    return make_producer(**{"queue.buffering.max.messages": 1_000_000, "queue.buffering.max.kbytes": 1_048_576})


def produce(prod, topic: str, records: list[Record], timestamps: dict | None) -> None:
    def report(err, msg) -> None:
        if err is not None:
            raise RuntimeError(f"produce failed: {err}")
        timestamps[(msg.partition(), msg.offset())] = msg.timestamp()[1]

    callback = report if timestamps is not None else None
    for i, record in enumerate(records):
        while True:
            try:
                prod.produce(topic, value=record.value, key=record.key, headers=record.headers,
                             partition=record.partition, on_delivery=callback)
                break
            except BufferError:
                prod.poll(0.05)
        if i % 1000 == 0:
            prod.poll(0)
    if prod.flush(60) != 0:
        raise RuntimeError("producer did not flush")


# -- ingest scenario -------------------------------------------------------------------------------
@dataclass
class Run:
    rate: float
    p50: float | None = None
    p99: float | None = None


def truncate(dsn: str) -> None:
    with psycopg.connect(dsn) as conn:
        conn.execute("TRUNCATE event_log, delivery_jobs, tenant_counters, pull_eligibility_hourly, "
                     "ingest_worker_heartbeats, subscriptions CASCADE")
        conn.execute("UPDATE subscription_versions SET version = version + 1 WHERE id = 1")


def insert_subscriptions(dsn: str, tenants: list[str], per_tenant: int) -> None:
    now = datetime.now(UTC)
    with psycopg.connect(dsn) as conn:
        for tenant in tenants:
            for i in range(per_tenant):
                conn.execute(
                    "INSERT INTO subscriptions (id, tenant_id, name, sink_kind, endpoint, event_types, "
                    "signature_version, plan_tier, enabled, verification_state, credential_kind, auto_disabled, "
                    "disabled_reason, created_at, updated_at) VALUES (%s, %s, %s, 'webhook', %s, %s, 'v1', "
                    "'standard', true, 'active', 'none', false, '', %s, %s)",
                    (uuid.uuid4(), tenant, f"bench-{i}", f"https://hooks.example/{tenant}/{i}",
                     orjson.dumps([EVENT_TYPE]).decode(), now, now))
        conn.execute("INSERT INTO subscription_versions (id, version) VALUES (1, 1) "
                     "ON CONFLICT (id) DO UPDATE SET version = subscription_versions.version + 1")


def count(conn: psycopg.Connection, tenants: list[str]) -> int:
    return conn.execute("SELECT count(*) FROM event_log WHERE tenant_id = ANY(%s)", (tenants,)).fetchone()[0]


def wait_count(conn: psycopg.Connection, tenants: list[str], expected: int, timeout: float,
               workers: list[subprocess.Popen]) -> float:
    """Poll until ``expected`` rows are visible; returns the wall time (time.time()) it was seen."""
    deadline = time.monotonic() + timeout
    while True:
        seen = count(conn, tenants)
        if seen >= expected:
            return time.time()
        if time.monotonic() > deadline:
            raise RuntimeError(f"only {seen} of {expected} events stored after {timeout:.0f}s")
        for worker in workers:
            if worker.poll() is not None:
                raise RuntimeError(f"ingest worker exited with {worker.returncode}")
        time.sleep(POLL_SECONDS)


def ingest_run(scratch: Scratch, records: list[Record], subs: int, workers: int,
               keep_topic: bool = False, profile: str = "", backlog: bool = False) -> tuple[Run, str]:
    """One measurement; returns it and the topic (left in place when ``keep_topic``)."""
    tag = uuid.uuid4().hex[:10]
    prefix = f"bench{tag}."
    topic = f"{prefix}ledger"
    group = f"bench-ingest-{tag}"
    tenants = [f"bench-{tag}-{i}" for i in range(TENANTS)]
    warm_tenant = f"bench-{tag}-warm"
    truncate(scratch.dsn)
    insert_subscriptions(scratch.dsn, tenants, subs)
    retenant(records, tenants)
    create_topic(topic)
    prod = producer()
    warm = build_records(PARTITIONS, [warm_tenant], seed=1)
    for i, record in enumerate(warm):
        record.partition = i
    produce(prod, topic, warm, None)
    timestamps: dict[tuple[int, int], int] = {}
    if backlog:
        produce(prod, topic, records, timestamps)
    env = {**os.environ, "HUB_DATABASE_URL": scratch.url, "HUB_KAFKA_TOPIC_PREFIX": prefix,
           "HUB_KAFKA_CONSUMER_GROUP": group, "HUB_KAFKA_DLQ_GROUP": f"{group}-dlq",
           "HUB_INGEST_METRICS_PORT": "0", "HUB_LOG_LEVEL": "WARNING"}
    logs = [tempfile.TemporaryFile() for _ in range(workers)]
    def command(i: int) -> list[str]:
        if not profile:
            return [sys.executable, "-m", "hub.cli", "ingest"]
        out = Path(profile) / f"ingest-{subs}subs-{tag}-{i}.prof"
        return [sys.executable, "-m", "cProfile", "-o", str(out), "-m", "hub.cli", "ingest"]

    procs = [subprocess.Popen(command(i), cwd=ROOT, env=env, stdout=subprocess.DEVNULL, stderr=log)
             for i, log in enumerate(logs)]
    try:
        with psycopg.connect(scratch.dsn, autocommit=True) as conn:
            wait_count(conn, [warm_tenant], PARTITIONS, 120, procs)
            if workers > 1:  # let the group settle with every member before timing
                deadline = time.monotonic() + 60
                while conn.execute("SELECT count(*) FROM ingest_worker_heartbeats").fetchone()[0] < workers:
                    if time.monotonic() > deadline:
                        raise RuntimeError("not every worker joined")
                    time.sleep(0.2)
                time.sleep(6)
            started = time.time()
            if not backlog:
                produce(prod, topic, records, timestamps)
            visible = wait_count(conn, tenants, len(records), max(120, len(records) / 200), procs)
            rows = conn.execute(
                "SELECT kafka_partition, kafka_offset, extract(epoch FROM received_at) * 1000 FROM event_log "
                "WHERE tenant_id = ANY(%s)", (tenants,)).fetchall()
            jobs = conn.execute("SELECT count(*) FROM delivery_jobs WHERE tenant_id = ANY(%s)",
                                (tenants,)).fetchone()[0]
        if len(rows) != len(records) or jobs != len(records) * subs:
            raise RuntimeError(f"stored {len(rows)} events and {jobs} jobs, expected {len(records)} and "
                               f"{len(records) * subs}")
        latencies = sorted(float(received) - timestamps[(partition, offset)] for partition, offset, received in rows)
        if backlog:
            first = min(float(received) for _p, _o, received in rows) / 1000
            return Run(len(records) / (visible - first), float("nan"), float("nan")), topic
        return Run(len(records) / (visible - started), percentile(latencies, 50), percentile(latencies, 99)), topic
    except BaseException:
        for log in logs:
            log.seek(0)
            sys.stderr.write(log.read().decode(errors="replace")[-4000:])
        raise
    finally:
        for proc in procs:
            proc.terminate()
        for proc in procs:
            try:
                proc.wait(30)
            except subprocess.TimeoutExpired:
                proc.kill()
        for log in logs:
            log.close()
        delete_kafka([] if keep_topic else [topic, f"{prefix}dlq"], [group])
        if keep_topic:
            delete_kafka([f"{prefix}dlq"], [])


def percentile(ordered: list[float], pct: float) -> float:
    if not ordered:
        return float("nan")
    index = min(len(ordered) - 1, max(0, round(pct / 100 * len(ordered) + 0.5) - 1))
    return ordered[index]


# -- ceilings -----------------------------------------------------------------------------------------
def bare_consumer(topic: str, expected: int) -> Run:
    consumer = Consumer({"bootstrap.servers": get_settings().kafka_bootstrap,
                         "group.id": f"bench-bare-{uuid.uuid4().hex[:10]}", "enable.auto.commit": False,
                         "enable.partition.eof": False})
    try:
        consumer.assign([TopicPartition(topic, p, OFFSET_BEGINNING) for p in range(PARTITIONS)])
        started: float | None = None
        received = 0
        deadline = time.monotonic() + 120
        while received < expected:
            if time.monotonic() > deadline:
                raise RuntimeError(f"bare consumer read {received} of {expected}")
            # Ask for no more than remain: a short last batch would otherwise wait out the timeout.
            for message in consumer.consume(num_messages=min(10_000, expected - received), timeout=1.0):
                if message.error() is None:
                    if started is None:
                        started = time.perf_counter()
                    message.value()
                    message.headers()
                    received += 1
        return Run(received / (time.perf_counter() - started))
    finally:
        consumer.close()


def bare_copy(scratch: Scratch, records: list[Record]) -> Run:
    """The worker's own event COPY (binary, same columns) of N decoded rows, one transaction."""
    from workers.ingest.decode import Event, decode_parts
    from workers.ingest.store import _copy_events

    received = datetime.now(UTC)
    events = []
    for seq, record in enumerate(records, start=1):
        event = decode_parts(record.headers, record.key, record.value, max_bytes=1 << 20)
        assert isinstance(event, Event)
        event.seq, event.topic, event.partition, event.offset = seq, "bench", record.partition, seq
        events.append(event)
    table = f"bench_copy_{uuid.uuid4().hex[:8]}"
    with psycopg.connect(scratch.dsn) as conn:
        conn.execute(f"CREATE TABLE {table} (LIKE event_log INCLUDING ALL)")
        conn.commit()
        try:
            started = time.perf_counter()
            _copy_events(conn.cursor(), table, events, received)
            conn.commit()
            elapsed = time.perf_counter() - started
        finally:
            conn.rollback()
            conn.execute(f"DROP TABLE IF EXISTS {table}")
            conn.commit()
    return Run(len(events) / elapsed)


# -- report -------------------------------------------------------------------------------------------
def median(values: list[float | None]) -> float | None:
    present = [value for value in values if value is not None]
    return statistics.median(present) if present else None


def fmt(value: float | None, digits: int = 1) -> str:
    return "-" if value is None else f"{value:,.{digits}f}"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("--events", type=int, default=50_000, help="events per measurement")
    parser.add_argument("--repeat", type=int, default=3, help="repetitions of each measurement")
    parser.add_argument("--workers", type=int, default=1, help="hub ingest processes (up to 6)")
    parser.add_argument("--subs", default="1,10", help="matching push subscriptions per event, comma separated")
    parser.add_argument("--backlog", action="store_true", help="produce first, then time the drain")
    parser.add_argument("--quick", action="store_true", help="2,000 events, one repetition")
    parser.add_argument("--profile", default="", metavar="DIR",
                        help="run the workers under cProfile, writing one .prof file per worker run into DIR")
    args = parser.parse_args(argv)
    if args.quick:
        args.events, args.repeat = 2_000, 1
    fan_outs = [int(item) for item in args.subs.split(",") if item.strip()]
    print(f"ingest bench: {args.events:,} events x {args.repeat} repetitions, {args.workers} worker process(es), "
          f"{PARTITIONS} partitions, {TENANTS} tenants, binary-mode CloudEvents", flush=True)
    records = build_records(args.events, [f"t{i}" for i in range(TENANTS)])
    print(f"record size: ~{statistics.mean(len(r.value) for r in records):.0f} bytes of data, "
          f"~{statistics.mean(sum(len(k) + len(v) for k, v in r.headers) for r in records):.0f} bytes of headers",
          flush=True)
    results: dict[str, list[Run]] = {"bare consumer": [], "bare COPY": []}
    labels = {k: f"ingest, {k} push sub{'s' if k != 1 else ''}/event" for k in fan_outs}
    for k in fan_outs:
        results[labels[k]] = []
    with Scratch() as scratch:
        for rep in range(1, args.repeat + 1):
            for k in fan_outs:
                first = k == fan_outs[0]
                run, topic = ingest_run(scratch, records, k, args.workers, keep_topic=first, profile=args.profile,
                                       backlog=args.backlog)
                results[labels[k]].append(run)
                print(f"  run {rep}: {labels[k]:<28} {run.rate:>10,.0f} ev/s  p50 {run.p50:8.1f} ms  "
                      f"p99 {run.p99:8.1f} ms", flush=True)
                if first:
                    try:
                        bare = bare_consumer(topic, args.events + PARTITIONS)
                    finally:
                        delete_kafka([topic], [])
                    results["bare consumer"].append(bare)
                    print(f"  run {rep}: {'bare consumer':<28} {bare.rate:>10,.0f} ev/s", flush=True)
            copied = bare_copy(scratch, records)
            results["bare COPY"].append(copied)
            print(f"  run {rep}: {'bare COPY':<28} {copied.rate:>10,.0f} ev/s", flush=True)
    consumer_rate = median([run.rate for run in results["bare consumer"]])
    copy_rate = median([run.rate for run in results["bare COPY"]])
    header = f"| {'scenario':<28} | {'median ev/s':>11} | {'p50 ms':>8} | {'p99 ms':>8} | {'vs bare consumer':>16} | {'vs bare COPY':>12} |"
    print()
    print(f"medians of {args.repeat} run(s), {args.events:,} events each:")
    print(header)
    print("|" + "|".join("-" * len(cell) for cell in header.split("|")[1:-1]) + "|")
    for name, runs in results.items():
        rate = median([run.rate for run in runs])
        print(f"| {name:<28} | {fmt(rate, 0):>11} | {fmt(median([r.p50 for r in runs])):>8} | "
              f"{fmt(median([r.p99 for r in runs])):>8} | {fmt(rate / consumer_rate, 3):>16} | "
              f"{fmt(rate / copy_rate, 3):>12} |")
    return 0


if __name__ == "__main__":
    sys.exit(main())

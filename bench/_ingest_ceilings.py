"""The machine's ceilings bench/ingest.py measures beside the workers: a bare Kafka consume of the same
records, and the worker's own binary COPY of them (with job rows) into scratch copies of its tables.

Not a bench of its own (``make bench`` skips ``bench/_*.py``).
"""

from __future__ import annotations

import math
import time
import uuid
from dataclasses import dataclass
from datetime import UTC, datetime

import psycopg
from confluent_kafka import OFFSET_BEGINNING, Consumer, TopicPartition

from bench._ingest_setup import PARTITIONS, Record, Scratch
from hub.config import get_settings


@dataclass
class Run:
    rate: float
    p50: float | None = None
    p99: float | None = None


def after_first_batch(seen: list[float]) -> float:
    """Events per second after the first committed batch (its own processing time is unknown).

    NaN when everything arrived at once: N must span many batches (2,000 records each by default).
    """
    first, last = min(seen), max(seen)
    counted = sum(1 for moment in seen if moment > first)
    return counted / ((last - first) / 1000) if last > first else math.nan


def bare_consumer(topic: str, expected: int) -> Run:
    """Read every record of ``topic`` touching value and headers; rate after the first batch."""
    consumer = Consumer({"bootstrap.servers": get_settings().kafka_bootstrap,
                         "group.id": f"bench-bare-{uuid.uuid4().hex[:10]}", "enable.auto.commit": False})
    try:
        consumer.assign([TopicPartition(topic, p, OFFSET_BEGINNING) for p in range(PARTITIONS)])
        arrivals: list[float] = []
        deadline = time.monotonic() + 120
        while len(arrivals) < expected:
            if time.monotonic() > deadline:
                raise RuntimeError(f"bare consumer read {len(arrivals)} of {expected}")
            # Ask for no more than remain: a short last batch would otherwise wait out the timeout.
            batch = consumer.consume(num_messages=min(1_000, expected - len(arrivals)), timeout=1.0)
            for message in batch:
                if message.error() is None:
                    message.value()
                    message.headers()
            arrivals += [time.time() * 1000] * sum(1 for message in batch if message.error() is None)
        return Run(after_first_batch(arrivals))
    finally:
        consumer.close()


def decoded(records: list[Record]) -> list:
    """The records decoded as the worker decodes them, numbered 1..N."""
    from hub.cloudevent.decode import Event, decode_parts

    events = []
    for seq, record in enumerate(records, start=1):
        event = decode_parts(record.headers, record.key, record.value, max_bytes=1 << 20)
        assert isinstance(event, Event)
        event.seq, event.topic, event.partition, event.offset = seq, "bench", record.partition, seq
        events.append(event)
    return events


def bare_copy(scratch: Scratch, records: list[Record], jobs_per_event: int = 0) -> Run:
    """The worker's own event COPY (binary, same columns) of N decoded rows, and JOBS_PER_EVENT of its
    job rows per event into a copy of ``delivery_jobs``, one transaction."""
    from workers.ingest.job_rows import COPY_COLUMNS, JobRows
    from workers.ingest.store import LIVE, PENDING, _copy_events

    events, received = decoded(records), datetime.now(UTC)
    subscriptions = tuple(str(uuid.uuid4()) for _ in range(jobs_per_event))
    tag = uuid.uuid4().hex[:8]
    events_table, jobs_table = f"bench_copy_{tag}", f"bench_jobs_{tag}"
    with psycopg.connect(scratch.dsn) as conn:
        conn.execute(f"CREATE TABLE {events_table} (LIKE event_log INCLUDING ALL)")
        conn.execute(f"CREATE TABLE {jobs_table} (LIKE delivery_jobs INCLUDING ALL)")
        conn.commit()
        try:
            started = time.perf_counter()
            cursor = conn.cursor()
            _copy_events(cursor, events_table, events, received)
            if subscriptions:
                jobs = JobRows(now=received, state=PENDING, priority=LIVE, subscription_fields={})
                for event in events:
                    jobs.add(event.tenant_id, event.seq, subscriptions)
                with cursor.copy(f"COPY {jobs_table} ({COPY_COLUMNS}) FROM STDIN (FORMAT BINARY)") as copy:
                    copy.write(jobs.data())
            conn.commit()
            elapsed = time.perf_counter() - started
        finally:
            conn.rollback()
            conn.execute(f"DROP TABLE IF EXISTS {events_table}, {jobs_table}")
            conn.commit()
    return Run(len(events) / elapsed)

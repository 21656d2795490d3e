"""The processes that deliver nothing record spans too (N71), with only the standard ``OTEL_*`` variables:
``hub dlq-observer`` a span per batch of dead letters, linked to their producers' trace contexts, and
``hub sweep --loop`` a span per retention sweep, each under its own service name."""

from __future__ import annotations

import os
import subprocess
import sys
import uuid

from devkit.otlp import otlp_receiver
from devkit.poll import wait_until
from devkit.processes import hub_process, stop
from hub.kafka import ensure_topics, make_producer


def _tracing_env(port: int) -> dict[str, str]:
    return {"OTEL_EXPORTER_OTLP_ENDPOINT": f"http://127.0.0.1:{port}", "OTEL_TRACES_SAMPLER": "always_on",
            "OTEL_BSP_SCHEDULE_DELAY": "200"}


def test_the_dlq_observer_links_its_batch_to_the_dead_letters_producers(dlq_db: str) -> None:
    prefix, trace_id = f"t{uuid.uuid4().hex[:10]}.", uuid.uuid4().hex
    dlq_topic = f"{prefix}dlq"
    ensure_topics([dlq_topic], partitions=1)
    producer = make_producer()
    producer.produce(dlq_topic, value=b"poison", headers=[
        ("ce_traceparent", f"00-{trace_id}-{uuid.uuid4().hex[:16]}-01".encode()),
        ("dlq-error-class", b"validation"), ("dlq-error-message", b"traced poison")])
    assert producer.flush(15) == 0
    with otlp_receiver() as collector:
        env = {"HUB_DATABASE_URL": dlq_db, "HUB_KAFKA_TOPIC_PREFIX": prefix,
               "HUB_KAFKA_DLQ_GROUP": f"test-dlq-{uuid.uuid4().hex[:8]}", **_tracing_env(collector.port)}
        with hub_process("dlq-observer", env):
            [span] = wait_until(lambda: [s for s in collector.named("dlq observation batch")
                                         if any(link[0] == trace_id for link in s.links)], 60, 0.3,
                                "the observer's span linked to the dead letter's producer")
    assert span.service == "streaming-hub-dlq-observer"


def test_the_sweep_loop_records_a_span_per_sweep(dlq_db: str) -> None:
    with otlp_receiver() as collector:
        env = {**os.environ, "HUB_DATABASE_URL": dlq_db, **_tracing_env(collector.port)}
        process = subprocess.Popen([sys.executable, "-m", "workers.cli", "sweep", "--loop", "--interval", "60"],
                                   env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        try:
            [span, *_] = wait_until(lambda: collector.named("retention sweep"), 60, 0.3, "a retention sweep span")
        finally:
            stop(process)
    assert span.service == "streaming-hub-sweep"

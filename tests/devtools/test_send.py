"""`hub send` as a real process against the real broker: what it produces, and what `hub ingest` stores.

D17/D18: the event goes to `<prefix><source>` (created when missing) in either content mode, and is
read back by the `cloudevents` library and by a real ingest worker.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import uuid
from typing import Any

import pytest
from cloudevents.core.bindings.kafka import KafkaMessage, from_kafka
from cloudevents.core.formats.json import JSONFormat
from confluent_kafka import TopicPartition

from hub.kafka import admin_client, make_consumer
from tests.ingest.conftest import rows, wait_until
from devkit.processes import hub_process


def _hub_send(env: dict[str, str], *args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "hub.cli", "send", *args], env={**os.environ, **env},
                          capture_output=True, text=True, timeout=120)


def _records(topic: str, expected: int, timeout: float = 30.0) -> list[Any]:
    """Every record of TOPIC (all partitions), until EXPECTED were read or TIMEOUT passed."""
    metadata = admin_client().list_topics(topic, timeout=10).topics[topic]
    consumer = make_consumer(f"read-{uuid.uuid4().hex[:8]}")
    consumer.assign([TopicPartition(topic, p, 0) for p in metadata.partitions])
    found: list[Any] = []
    try:
        found = wait_until(lambda: found.extend(m for m in consumer.consume(100, timeout=0.5) if m.error() is None)
                           or (len(found) >= expected and found), timeout=timeout)
    finally:
        consumer.close()
    return found


@pytest.fixture
def prefix_env() -> dict[str, str]:
    prefix = f"t{uuid.uuid4().hex[:10]}."
    return {"HUB_KAFKA_TOPIC_PREFIX": prefix, "HUB_KAFKA_CONSUMER_GROUP": f"ingest-{prefix}",
            "HUB_KAFKA_DLQ_GROUP": f"dlq-{prefix}"}


def _library_event(record: Any) -> Any:
    message = KafkaMessage(headers=dict(record.headers() or []), key=record.key(), value=record.value())
    return from_kafka(message, JSONFormat())


@pytest.mark.parametrize("mode", ["binary", "structured"])
def test_send_creates_the_topic_and_produces_a_cloud_event(prefix_env, tenant, tmp_path, mode) -> None:
    """D17/D18: `hub send` writes to <prefix><source>, creating it; the library reads the event back."""
    data_file = tmp_path / "data.json"
    data_file.write_text(json.dumps({"amount": {"value": "12.50", "currency": "BRL"}}))
    result = _hub_send(prefix_env, "--tenant", tenant, "--source", "payments", "--type", "payment.settled",
                       "--data", f"@{data_file}", "--id", "evt-1", "--count", "3", "--mode", mode,
                       "--key", "acct-7", "--schema-version", "2.0.1")
    assert result.returncode == 0, result.stderr
    topic = f"{prefix_env['HUB_KAFKA_TOPIC_PREFIX']}payments"
    lines = result.stdout.strip().splitlines()
    assert len(lines) == 3 and all(f"to {topic} partition" in line and f"({mode})" in line for line in lines)
    records = _records(topic, 3)
    assert len(records) == 3
    events = [_library_event(record) for record in records]
    assert sorted(event.get_id() for event in events) == ["evt-1-1", "evt-1-2", "evt-1-3"]
    for record, event in zip(records, events):
        attributes = event.get_attributes()
        assert (attributes["type"], attributes["source"], attributes["tenantid"]) == (
            "payment.settled", "payments", tenant)
        assert attributes["schemaversion"] == "2.0.1" and record.key() == b"acct-7"
        assert event.get_data() == {"amount": {"value": "12.50", "currency": "BRL"}}
        header_names = {name for name, _ in record.headers()}
        if mode == "binary":
            assert "ce_specversion" in header_names
        else:
            assert dict(record.headers())["content-type"] == b"application/cloudevents+json"
        assert f"id={event.get_id()}" in result.stdout


def test_sent_events_are_stored_by_a_real_ingest_worker(prefix_env, tenant) -> None:
    """D18: both modes from `hub send` are stored by `hub ingest` with their data."""
    for mode in ("binary", "structured"):
        result = _hub_send(prefix_env, "--tenant", tenant, "--data", '{"n": 1}', "--mode", mode)
        assert result.returncode == 0, result.stderr
    with hub_process("ingest", prefix_env):
        stored = wait_until(lambda: len(found := rows(
            "SELECT event_type, data::text FROM event_log WHERE tenant_id = %s", (tenant,))) >= 2 and found,
            timeout=60)
    assert sorted((event_type, json.loads(data)) for event_type, data in stored) == [
        ("transaction.posted", {"n": 1}), ("transaction.posted", {"n": 1})]


@pytest.mark.parametrize("args, message", [
    (["--data", "{not json"], "--data is not valid JSON"),
    (["--data", "@/nonexistent/file.json"], "cannot read the data file"),
    (["--source", "dlq"], "dead-letter topic"),
    (["--source", "no spaces"], "does not make a Kafka topic name"),
    (["--mode", "avro"], "mode must be one of"),
    (["--count", "0"], "count must be at least 1"),
])
def test_send_refuses_what_it_cannot_send(prefix_env, args, message) -> None:
    """Bad input: exit 2 and one line saying why, and nothing produced."""
    result = _hub_send(prefix_env, *args)
    assert result.returncode == 2
    assert message in result.stderr
    prefix = prefix_env["HUB_KAFKA_TOPIC_PREFIX"]
    assert not [t for t in admin_client().list_topics(timeout=10).topics if t.startswith(prefix)]

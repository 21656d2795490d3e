"""End to end: a N20 record on a real dead-letter topic → the real observer process → GET /admin/dlq."""

from __future__ import annotations

import uuid

from hub.kafka import ensure_topics, make_producer
from tests.catalog.contract import assert_matches
from devkit.processes import hub_process
from devkit.poll import wait_until


def _wait_for_observations(client, headers, params, count: int) -> dict:
    def served() -> dict | None:
        body = client.get("/admin/dlq", headers=headers, params=params).json()
        return body if len(body.get("observations", [])) >= count else None

    return wait_until(served, 60, 0.3, f"the observer to record {count} observation(s) for {params}")


def test_dead_letter_record_is_observed_and_served(dlq_db, client, operator_headers):
    """R-listDLQObservations-03, -04, -05, -10 (docs/contract-notes.md N20): what the observer captures is served."""
    prefix = f"t{uuid.uuid4().hex[:10]}."
    source_topic = f"{prefix}ledger"
    dlq_topic = f"{prefix}dlq"
    ensure_topics([dlq_topic], partitions=1)
    producer = make_producer()
    headers = [
        ("dlq-source-topic", source_topic.encode()),
        ("dlq-error-class", b"validation"),
        ("dlq-error-message", b"missing tenantid; seen at broker-7.internal:9092 password=hunter2"),
        ("dlq-retry-count", b"3"),
        ("dlq-first-failure-at", b"2030-01-02T03:04:05.678Z"),
        ("dlq-producer-id", b"ledger"),
        ("dlq-tenant-id-raw", b"tenant-claimed"),
    ]
    producer.produce(dlq_topic, value=b'{"not": "a cloudevent"}', headers=headers)
    producer.produce(dlq_topic, value=b"\x00garbage", headers=[("dlq-error-class", b"no-such-class")])
    assert producer.flush(15) == 0

    env = {"HUB_DATABASE_URL": dlq_db, "HUB_KAFKA_TOPIC_PREFIX": prefix,
           "HUB_KAFKA_DLQ_GROUP": f"test-dlq-{uuid.uuid4().hex[:8]}"}
    with hub_process("dlq-observer", env):
        served = _wait_for_observations(client, operator_headers, {"source_topic": source_topic}, 1)
        unknown = _wait_for_observations(client, operator_headers, {"source_topic": "unknown"}, 1)
    assert_matches("DLQResponse", served)
    row = served["observations"][0]
    assert {key: row[key] for key in ("source_topic", "error_class", "retry_count", "first_failure_at",
                                      "producer_id", "tenant_id_raw")} == {
        "source_topic": source_topic, "error_class": "validation", "retry_count": 3,
        "first_failure_at": "2030-01-02T03:04:05.678000Z", "producer_id": "ledger",
        "tenant_id_raw": "tenant-claimed"}
    assert "missing tenantid" in row["error_message"]
    for leaked in ("broker-7.internal", "9092", "hunter2"):
        assert leaked not in row["error_message"]
    assert unknown["observations"][0]["error_class"] == "unknown"
    assert served["nextCursor"] == ""

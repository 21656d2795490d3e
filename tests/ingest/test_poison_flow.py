"""N18/N20 on the real broker: each poison kind is quarantined and the partition keeps flowing.

One single-partition topic carries, in order, a good event, then every poison kind each followed by
a good event (alternating content modes). An in-process ingestion worker and DLQ observer run
against it; the test then reads the DLQ topic, the event log, the poison attempts and the
observations.
"""

from __future__ import annotations

import json
from collections import Counter
from datetime import datetime

from cloudevents.core.bindings.kafka import KafkaMessage

from hub.dlq.service import ERROR_CLASSES
from hub.ids import record_uuid
from hub.metrics import POISON_RECORDS
from tests.ingest.conftest import (
    binary, cloud_event, dlq_observer, ingest_worker, rows, scalar, stored, structured, wait_until,
)

MAX_BYTES = 4096
D20_HEADERS = ("dlq-source-topic", "dlq-error-class", "dlq-error-message", "dlq-retry-count",
               "dlq-first-failure-at", "dlq-producer-id", "dlq-tenant-id-raw")


def _poison_kinds(tenant: str) -> dict[str, tuple[KafkaMessage, str, str, str]]:
    """name → (record, error class, message fragment, tenant the DLQ header should carry).

    The records that carry a source say ``billing``, so the producer id header can be told apart
    from the topic's producer (``ledger``)."""
    no_id = binary(cloud_event(tenant, source="billing"))
    no_id = KafkaMessage({k: v for k, v in no_id.headers.items() if k != "ce_id"}, None, no_id.value)
    envelope = json.loads(structured(cloud_event(tenant, source="billing")).value)
    envelope.pop("tenantid")
    null_tenant = {**json.loads(structured(cloud_event(tenant, source="billing")).value), "tenantid": None}
    not_json = binary(cloud_event(tenant, source="billing"))
    return {
        "garbage": (KafkaMessage({"content-type": b"application/cloudevents+json"}, None, b"\xff\x00 junk"),
                    "serialization", "not valid JSON", ""),
        "no_ce_headers": (KafkaMessage({"content-type": b"application/json"}, b"k", b'{"amount": 1}'),
                          "validation", "missing required attribute 'specversion'", ""),
        "missing_id": (no_id, "validation", "missing required attribute 'id'", tenant),
        "no_tenant": (KafkaMessage({"content-type": b"application/cloudevents+json"}, None,
                                   json.dumps(envelope).encode()), "validation", "'tenantid'", ""),
        "null_tenant": (KafkaMessage({"content-type": b"application/cloudevents+json"}, None,
                                     json.dumps(null_tenant).encode()), "validation", "'tenantid'", ""),
        "data_not_json": (KafkaMessage(not_json.headers, None, b"{not json"), "serialization",
                          "data is not valid JSON", tenant),
        "oversized": (binary(cloud_event(tenant, source="billing", data={"blob": "x" * MAX_BYTES})), "validation",
                      f"over the {MAX_BYTES}-byte limit", tenant),
    }


def _headers(record) -> dict[str, str]:
    found: dict[str, str] = {}
    for name, raw in record.headers() or []:
        found[name] = raw.decode()  # the dlq-* headers are appended last: last one wins
    return found


def test_every_poison_kind_is_quarantined_and_the_partition_keeps_flowing(lane, tenant, override_settings):
    """N18/N20, R-getSubscriptionHealth-09, R-listDLQObservations-04/05: poison → DLQ, good events flow."""
    override_settings(kafka_max_record_bytes=MAX_BYTES)
    kinds = _poison_kinds(tenant)
    good = [cloud_event(tenant) for _ in range(len(kinds) + 1)]
    modes = [binary, structured]
    lane.send(modes[0](good[0]))
    for index, (record, *_rest) in enumerate(kinds.values(), start=1):
        lane.send(record, modes[index % 2](good[index]))
    end = lane.end_offset()
    assert end == 2 * len(kinds) + 1
    before = {cls: POISON_RECORDS.labels(error_class=cls)._value.get() for cls in ("serialization", "validation")}

    with ingest_worker(), dlq_observer():
        wait_until(lambda: stored(tenant) == len(good))
        wait_until(lambda: lane.committed() == end)
        wait_until(lambda: scalar("SELECT count(*) FROM dlq_observations WHERE source_topic = %s",
                                  (lane.topic,)) == len(kinds))

    # Every good event, in both modes, was stored once and in topic order (the poison did not block).
    ids = [row[0] for row in rows("SELECT ce_id FROM event_log WHERE tenant_id = %s ORDER BY seq", (tenant,))]
    assert ids == [event.get_attributes()["id"] for event in good]

    # The DLQ topic holds each poison record, bytes intact, with the N20 headers.
    dead = lane.dlq_records(len(kinds))
    assert len(dead) == len(kinds)
    by_offset = {int(_headers(record)["dlq-source-offset"]): record for record in dead}
    assert sorted(by_offset) == [2 * i - 1 for i in range(1, len(kinds) + 1)]
    source_stamps = {record.offset(): record.timestamp()[1] for record in lane.read(lane.topic, end)}
    assert len(source_stamps) == end and all(stamp > 0 for stamp in source_stamps.values())
    for index, (name, (original, error_class, fragment, tenant_raw)) in enumerate(kinds.items(), start=1):
        record = by_offset[2 * index - 1]
        headers = _headers(record)
        assert set(D20_HEADERS) <= set(headers), name
        assert record.value() == original.value, f"{name}: the original bytes are kept"
        assert headers["dlq-source-topic"] == lane.topic
        assert headers["dlq-error-class"] == error_class and error_class in ERROR_CLASSES, name
        assert fragment in headers["dlq-error-message"], (name, headers["dlq-error-message"])
        assert headers["dlq-retry-count"] == "0"
        # The source record's coordinates, which the observer turns into the observation's id.
        assert headers["dlq-source-partition"] == "0"
        assert headers["dlq-source-timestamp"] == str(source_stamps[2 * index - 1]), name
        assert datetime.fromisoformat(headers["dlq-first-failure-at"]).tzinfo is not None
        assert headers["dlq-tenant-id-raw"] == tenant_raw, name
        # The record's ce source when readable, else the producer named by the topic (N17).
        assert headers["dlq-producer-id"] == ("ledger" if name in {"garbage", "no_ce_headers"} else "billing"), name
        for header, value in original.headers.items():
            assert (header, value) in [(n, v) for n, v in record.headers()], f"{name}: original header {header}"

    # A poison attempt per record whose tenant could be read (N23), none for the unreadable ones.
    attempts = rows("SELECT error_class, outcome, job_id FROM delivery_attempts WHERE tenant_id = %s "
                    "ORDER BY error_class", (tenant,))
    readable = sorted(cls for _, cls, _, raw in kinds.values() if raw)
    assert [row[0] for row in attempts] == readable
    assert {(row[1], row[2]) for row in attempts} == {("poison", None)}

    # The observer stored one observation per dead-letter record, built from its headers, with the
    # id the source record's coordinates fix (a re-quarantined copy would get the same one).
    observed = rows("SELECT error_class, tenant_id_raw, retry_count, error_message, id FROM dlq_observations "
                    "WHERE source_topic = %s ORDER BY dlq_offset", (lane.topic,))
    assert [(row[0], row[1], row[2]) for row in observed] == [(cls, raw, 0) for _, cls, _, raw in kinds.values()]
    assert all(row[3] for row in observed)
    assert sorted(row[4] for row in observed) == sorted(
        record_uuid(lane.topic, 0, offset, source_stamps[offset]) for offset in by_offset)

    after = {cls: POISON_RECORDS.labels(error_class=cls)._value.get() for cls in before}
    expected = Counter(cls for _, cls, _, _ in kinds.values())
    assert expected == {"serialization": 2, "validation": 5}
    assert after["serialization"] - before["serialization"] == expected["serialization"]
    assert after["validation"] - before["validation"] == expected["validation"]

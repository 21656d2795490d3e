"""D18: events from producers nobody here wrote are stored: both Python APIs of the ``cloudevents``
library in both content modes, and a binary record with ``ce_`` headers as ``kcat -H`` sends it.

The library's older API (``cloudevents.v1.kafka.to_structured``) writes a structured envelope but
labels the record with the data's content type (or nothing) and sends no ``ce_`` headers; such a
record is read as structured. The unit tests hold the decoder to what that API reads back; the
end-to-end test runs every shape through the real broker and a real ``hub ingest`` process.
"""

from __future__ import annotations

import base64
import json
import shutil
import subprocess
import uuid
from pathlib import Path
from typing import Any

import pytest
from cloudevents.core.bindings import kafka as core_kafka
from cloudevents.core.formats.json import JSONFormat
from cloudevents.core.v1.event import CloudEvent as CoreEvent
from cloudevents.v1 import kafka as v1_kafka
from cloudevents.v1.http import CloudEvent as V1Event

from hub.config import get_settings
from hub.kafka import ensure_topics, make_producer
from tests.ingest.conftest import rows, wait_until
from devkit.processes import hub_process
from hub.cloudevent.decode import SERIALIZATION, VALIDATION, Event, Poison, decode_parts

ROOT = Path(__file__).resolve().parents[2]
LIMIT = 1_048_576
DATA = {"amount": 7, "memo": "coffee"}


def _decode(message: Any) -> Event | Poison:
    key = message.key.encode() if isinstance(message.key, str) else message.key
    return decode_parts(list(message.headers.items()), key, message.value, max_bytes=LIMIT)


def _v1_event(tenant: str, ce_id: str, **extra: Any) -> V1Event:
    attributes = {"id": ce_id, "source": "ledger", "type": "transaction.posted", "tenantid": tenant, **extra}
    return V1Event(attributes, DATA)


def _core_event(tenant: str, ce_id: str, **extra: Any) -> CoreEvent:
    attributes = {"id": ce_id, "source": "ledger", "type": "transaction.posted", "specversion": "1.0",
                  "tenantid": tenant, "datacontenttype": "application/json", **extra}
    return CoreEvent(attributes=attributes, data=DATA)


# -- the older API's structured records, decoded as that API reads them back -----------------------

@pytest.mark.parametrize("extra", [
    {"datacontenttype": "application/json"},
    {},
    {"datacontenttype": "application/json", "partitionkey": "acct-9", "subject": "s-1"},
    {"schemaversion": "2.1.0", "time": "2024-05-06T07:08:09Z"},
])
def test_v1_structured_record_decodes_as_the_library_reads_it(extra) -> None:
    """D18: no ce_ headers, content-type application/json (or none): the envelope is the event."""
    message = v1_kafka.to_structured(V1Event({"source": "ledger", "type": "transaction.posted",
                                              "tenantid": "tenant-acme", **extra}, DATA))
    assert not any(name.startswith("ce_") for name in message.headers)
    decoded = _decode(message)
    assert isinstance(decoded, Event), decoded
    library = v1_kafka.from_structured(message)
    expected = {name: value for name, value in library.get_attributes().items()}
    got = json.loads(decoded.attributes_json)
    assert got.pop("time") == expected.pop("time")
    assert got == expected
    assert json.loads(decoded.data_json) == library.get_data() == DATA
    assert decoded.partition_key == extra.get("partitionkey")
    assert decoded.schema_major == int(extra.get("schemaversion", "1.0.0").split(".")[0])


def test_v1_structured_bytes_data_arrives_as_base64_and_is_read_under_its_content_type() -> None:
    """D18: bytes data goes out as data_base64; the content-type header says it is JSON."""
    event = V1Event({"source": "ledger", "type": "t.x", "tenantid": "tenant-acme",
                     "datacontenttype": "application/json"}, json.dumps(DATA).encode())
    message = v1_kafka.to_structured(event)
    assert b"data_base64" in message.value
    decoded = _decode(message)
    assert isinstance(decoded, Event) and json.loads(decoded.data_json) == DATA
    opaque = v1_kafka.to_structured(V1Event({"source": "ledger", "type": "t.x", "tenantid": "tenant-acme",
                                             "datacontenttype": "application/octet-stream"}, b"\x00\xff"))
    decoded = _decode(opaque)
    assert isinstance(decoded, Event)
    assert base64.b64decode(json.loads(decoded.data_json)) == b"\x00\xff"


def test_unlabelled_envelope_is_checked_like_any_structured_event() -> None:
    """D18: the envelope still needs a tenant, a 1.0 specversion, and no U+0000."""
    no_tenant = v1_kafka.to_structured(V1Event({"source": "ledger", "type": "t.x"}, DATA))
    poison = _decode(no_tenant)
    assert isinstance(poison, Poison)
    assert (poison.error_class, poison.message) == (VALIDATION, "missing required extension 'tenantid'")
    assert poison.producer_id == "ledger"
    old = _decode(v1_kafka.KafkaMessage({}, None, json.dumps({"specversion": "0.3", "id": "1"}).encode()))
    assert isinstance(old, Poison) and "unsupported specversion" in old.message
    nul = {"specversion": "1.0", "id": "1", "source": "s", "type": "t", "tenantid": "a", "data": "x\u0000"}
    assert isinstance(_decode(v1_kafka.KafkaMessage({}, None, json.dumps(nul).encode())), Poison)


@pytest.mark.parametrize("value", [b'{"amount": 7}', b'["specversion"]', b'{"note": "specversion"}',
                                   b'{"specversion": ', b"\xff specversion"])
def test_a_value_without_a_specversion_member_is_still_not_a_cloud_event(value) -> None:
    """D18: only a JSON object that holds specversion is taken for an envelope."""
    poison = _decode(v1_kafka.KafkaMessage({"content-type": b"application/json"}, None, value))
    assert isinstance(poison, Poison)
    assert poison.error_class in {VALIDATION, SERIALIZATION}
    if value == b'{"amount": 7}':
        assert poison.message == "not a CloudEvent: missing required attribute 'specversion'"


def test_a_ce_specversion_header_keeps_the_record_binary() -> None:
    """D18: with ce_specversion the value is data, even when it looks like an envelope."""
    envelope = {"specversion": "1.0", "id": "other", "source": "x", "type": "y", "tenantid": "z"}
    headers = {"ce_specversion": b"1.0", "ce_id": b"e-1", "ce_source": b"ledger", "ce_type": b"t.x",
               "ce_tenantid": b"tenant-acme", "content-type": b"application/json"}
    decoded = _decode(v1_kafka.KafkaMessage(headers, None, json.dumps(envelope).encode()))
    assert isinstance(decoded, Event)
    assert (decoded.ce_id, json.loads(decoded.data_json)) == ("e-1", envelope)


# -- every producer shape through the real broker and a real `hub ingest` --------------------------

def _kcat_send(topic: str, tenant: str, ce_id: str) -> None:
    """A binary record with ce_ headers, produced by kcat itself (installed by deploy/local/tools.sh)."""
    subprocess.run(["bash", str(ROOT / "deploy/local/tools.sh"), "kcat"], check=True, timeout=600)
    headers = {"ce_specversion": "1.0", "ce_id": ce_id, "ce_source": "ledger", "ce_type": "transaction.posted",
               "ce_tenantid": tenant, "ce_time": "2024-05-06T07:08:09Z", "content-type": "application/json"}
    argv = [shutil.which("kcat") or "kcat", "-P", "-b", get_settings().kafka_bootstrap, "-t", topic, "-k", "acct-1"]
    for name, value in headers.items():
        argv += ["-H", f"{name}={value}"]
    subprocess.run(argv, input=json.dumps(DATA).encode(), check=True, timeout=60)


def _sdk_records(tenant: str) -> dict[str, Any]:
    """Shape name -> the library's KafkaMessage for one event with its own id."""
    ids = {name: str(uuid.uuid4()) for name in ("v1-binary", "v1-structured", "core-binary", "core-structured")}
    v1_attrs = {"datacontenttype": "application/json"}
    return {
        "v1-binary": v1_kafka.to_binary(_v1_event(tenant, ids["v1-binary"], **v1_attrs)),
        "v1-structured": v1_kafka.to_structured(_v1_event(tenant, ids["v1-structured"], **v1_attrs)),
        "core-binary": core_kafka.to_binary(_core_event(tenant, ids["core-binary"]), JSONFormat()),
        "core-structured": core_kafka.to_structured(_core_event(tenant, ids["core-structured"]), JSONFormat()),
    }


def test_every_producer_shape_is_stored_by_a_real_ingest_worker(tenant) -> None:
    """D18: five producer shapes on the real broker, each stored once by `hub ingest` with its data."""
    prefix = f"t{uuid.uuid4().hex[:10]}."
    env = {"HUB_KAFKA_TOPIC_PREFIX": prefix, "HUB_KAFKA_CONSUMER_GROUP": f"ingest-{prefix}",
           "HUB_KAFKA_DLQ_GROUP": f"dlq-{prefix}"}
    topic = f"{prefix}ledger"
    ensure_topics([topic, f"{prefix}dlq"], partitions=1)
    messages = _sdk_records(tenant)
    producer = make_producer()
    for message in messages.values():
        key = message.key.encode() if isinstance(message.key, str) else message.key
        producer.produce(topic, value=message.value, key=key, headers=list(message.headers.items()))
    assert producer.flush(15) == 0
    kcat_id = str(uuid.uuid4())
    _kcat_send(topic, tenant, kcat_id)
    expected = {json.loads(m.value)["id"] if "structured" in name else m.headers["ce_id"].decode(): name
                for name, m in messages.items()}
    expected[kcat_id] = "kcat"

    query = "SELECT ce_id, data::text, attributes::text FROM event_log WHERE tenant_id = %s"
    with hub_process("ingest", env):
        stored = wait_until(lambda: (found := rows(query, (tenant,))) and len(found) >= 5 and found, timeout=60)
    assert {ce_id for ce_id, _, _ in stored} == set(expected), "every shape stored, none quarantined"
    assert len(stored) == 5
    for ce_id, data, attributes in stored:
        assert json.loads(data) == DATA, expected[ce_id]
        attrs = json.loads(attributes)
        assert (attrs["source"], attrs["type"], attrs["tenantid"]) == ("ledger", "transaction.posted", tenant)
        assert attrs.get("datacontenttype") == "application/json", expected[ce_id]
    kcat_attrs = json.loads(next(a for ce_id, _, a in stored if ce_id == kcat_id))
    assert kcat_attrs["partitionkey"] == "acct-1"

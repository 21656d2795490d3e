"""Every producing surface's records decode through the ingest decoder with the attributes it promised.

The surfaces build their records through :mod:`hub.backbone.outbound` (the one way onto the backbone);
each record here is read back by ``decode_parts``, the function ``hub ingest`` stores with, and its
attributes, key and topic are checked against what the surface's documentation promises.
"""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

import orjson
import pytest

from hub.backbone.outbound import OutboundEvent, to_record, topic_for
from hub.broker.inputs import topic_of
from hub.broker.projection import BROKER_SOURCE
from hub.broker.publish import broker_topic
from hub.broker.publish import build_record as broker_record
from hub.cloudevent.decode import Event, decode_parts
from hub.cloudevent.encode import BINARY, STRUCTURED, InvalidEvent, KafkaRecord
from hub.config import get_settings
from hub.devtools.send import SendRequest, build_message
from hub.lifecycle.event_types import HUB_SOURCE, hub_topic
from hub.lifecycle.publisher import build_lifecycle_event
from hub.publisher import service as publisher
from hub.publisher.access import Publisher
from hub.publisher.models import PublishEvent

MAX = 1_048_576


def stored(record: KafkaRecord) -> tuple[Event, dict[str, Any]]:
    """What ingest stores of RECORD: the decoded event and its attributes."""
    event = decode_parts(list(record.headers), record.key, record.value, max_bytes=MAX)
    assert isinstance(event, Event), event
    return event, orjson.loads(event.attributes_json)


def test_the_seed_000_publisher_promises_its_extensions_and_the_resource_as_key() -> None:
    record = publisher.build_record(Publisher("t-1", "alice@example.com", frozenset({"*"})),
                                    PublishEvent("myapp.user.created", {"n": 1}, datetime(2024, 10, 16, tzinfo=UTC),
                                                 "/users/1"), "2024-10-16T14:30:00Z")
    event, attributes = stored(record)
    assert (event.tenant_id, event.source, event.event_type) == ("t-1", "event-publisher-service", "myapp.user.created")
    assert attributes["principalidentity"] == "alice@example.com" and attributes["resourceid"] == "/users/1"
    assert attributes["occurredat"] == attributes["time"] and attributes["publishedat"] == "2024-10-16T14:30:00Z"
    assert record.key == b"/users/1" and event.partition_key == "/users/1"
    assert orjson.loads(event.data_json) == {"n": 1}
    assert publisher.publish_topic() == f"{get_settings().kafka_topic_prefix}event-publisher-service"


def test_the_seed_003_broker_promises_the_topic_as_subject_and_its_main_topic_as_key() -> None:
    record = broker_record(tenant_id="t-2", topic=topic_of("orders:1042:lines"), event_type="order.shipped",
                           data={"on": "lines"}, ts=1_730_000_000_000)
    event, attributes = stored(record)
    assert (event.tenant_id, event.source, attributes["subject"]) == ("t-2", BROKER_SOURCE, "orders:1042:lines")
    assert record.key == b"orders" and event.partition_key == "orders"
    assert broker_topic() == topic_for(BROKER_SOURCE)


def test_lifecycle_events_promise_their_schema_version_and_delegated_scope() -> None:
    record = build_lifecycle_event(tenant_id="t-3", event_type="hub.destination.disabled", data={"id": "s"},
                                   delegated_scope="party-9", event_id="evt-1")
    event, attributes = stored(record)
    assert (event.ce_id, event.source, event.schema_version, event.delegated_scope) == \
        ("evt-1", HUB_SOURCE, "1.0.0", "party-9")
    assert attributes["schemaversion"] == "1.0.0" and record.key == b"t-3"
    assert hub_topic() == topic_for(HUB_SOURCE)


@pytest.mark.parametrize("mode", [BINARY, STRUCTURED])
def test_hub_send_and_the_chaos_traffic_promise_their_key_and_schema_version(mode: str) -> None:
    request = SendRequest("t-4", "ledger", "transaction.posted", {"amount": 5}, mode=mode, key="acct-7",
                          schema_version="2.1.0")
    event, attributes = stored(build_message(request, "ce-1"))
    assert (event.ce_id, event.tenant_id, event.source, event.schema_version) == ("ce-1", "t-4", "ledger", "2.1.0")
    assert event.partition_key == "acct-7" and attributes["partitionkey"] == "acct-7"
    unkeyed, _ = stored(build_message(SendRequest("t-4", "ledger", "transaction.posted", {}, mode=mode), "ce-2"))
    assert unkeyed.partition_key is None


def test_an_optional_attribute_left_unset_is_not_written() -> None:
    event = OutboundEvent(source="ledger", event_type="a.b", tenant_id="t", event_id="e", time="2024-10-16T00:00:00Z",
                          data=None)
    assert set(event.attributes()) == {"specversion", "id", "source", "type", "tenantid", "time", "datacontenttype"}


def test_a_record_ingest_would_refuse_is_refused_before_it_is_produced() -> None:
    with pytest.raises(InvalidEvent):
        to_record(OutboundEvent(source="ledger", event_type="a.b", tenant_id="", event_id="e",
                                time="2024-10-16T00:00:00Z", data={}))

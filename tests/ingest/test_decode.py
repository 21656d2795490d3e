"""N18: the hand-written decoder agrees with the ``cloudevents`` Kafka binding; poison is classified.

Pure logic, no broker: the records are the library's own ``KafkaMessage`` values, handed to
``decode_parts`` as a consumed record's headers, key and value would be.
"""

from __future__ import annotations

import json
from datetime import UTC, datetime

import pytest
from cloudevents.core.bindings.kafka import KafkaMessage, from_kafka, to_binary_event, to_structured_event
from cloudevents.core.formats.json import JSONFormat
from cloudevents.core.v1.event import CloudEvent
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from hub.cloudevent.decode import SERIALIZATION, VALIDATION, Event, Poison, decode_parts

LIMIT = 1_048_576
BASE = {"id": "e-1", "source": "ledger", "type": "transaction.posted", "specversion": "1.0",
        "tenantid": "tenant-acme", "datacontenttype": "application/json"}


def _decode(message: KafkaMessage, *, max_bytes: int = LIMIT) -> Event | Poison:
    key = message.key.encode() if isinstance(message.key, str) else message.key
    return decode_parts(list(message.headers.items()), key, message.value, max_bytes=max_bytes)


def _assert_agrees(message: KafkaMessage) -> Event:
    """The decoder's attributes, time and data equal what the library reads from the same record."""
    library = from_kafka(message, JSONFormat())
    decoded = _decode(message)
    assert isinstance(decoded, Event), decoded
    expected = dict(library.get_attributes())
    got = json.loads(decoded.attributes_json)
    expected_time = expected.pop("time", None)
    got_time = got.pop("time", None)
    assert got == expected
    if expected_time is None:
        assert got_time is None and decoded.time is None
    else:
        assert decoded.time == expected_time
    data = library.get_data()
    assert (None if decoded.data_json is None else json.loads(decoded.data_json)) == data
    assert (decoded.tenant_id, decoded.source, decoded.ce_id, decoded.event_type) == (
        expected["tenantid"], expected["source"], expected["id"], expected["type"])
    assert decoded.partition_key == expected.get("partitionkey")
    assert decoded.delegated_scope == expected.get("delegatedscope")
    return decoded


# -- agreement with the library -------------------------------------------------------------------

_text = st.text(st.characters(blacklist_categories=("Cs", "Cc")), min_size=1, max_size=24)
_json = st.recursive(
    st.none() | st.booleans() | st.integers(-(2**63), 2**63 - 1)
    | st.floats(allow_nan=False, allow_infinity=False) | _text,
    lambda children: st.lists(children, max_size=4) | st.dictionaries(_text, children, max_size=4),
    max_leaves=12,
)
_extension_names = st.from_regex(r"\A[a-z][a-z0-9]{0,9}\Z").filter(
    lambda name: name not in {"data", "time", "id", "source", "type", "specversion", "datacontenttype",
                              "schemaversion", "partitionkey", "tenantid"})


@st.composite
def cloud_events(draw: st.DrawFn) -> CloudEvent:
    attributes = {"id": draw(_text), "source": draw(_text), "type": draw(_text), "specversion": "1.0",
                  "tenantid": draw(_text), "datacontenttype": "application/json"}
    if draw(st.booleans()):
        attributes["time"] = draw(st.datetimes(min_value=datetime(1970, 1, 2), max_value=datetime(9999, 1, 1),
                                               timezones=st.just(UTC)))
    if draw(st.booleans()):
        major, minor, patch = draw(st.tuples(*[st.integers(0, 999)] * 3))
        attributes["schemaversion"] = f"{major}.{minor}.{patch}"
    for name in ("subject", "delegatedscope", "partitionkey"):
        if draw(st.booleans()):
            attributes[name] = draw(_text)
    for name in draw(st.lists(_extension_names, max_size=3, unique=True)):
        attributes[name] = draw(_text)
    # An object: the library's binary mode writes anything else as its Python text (``[None]``).
    data = draw(st.dictionaries(_text, _json, max_size=5))
    return CloudEvent(attributes=attributes, data=data)


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(event=cloud_events())
def test_binary_mode_agrees_with_library(event: CloudEvent) -> None:
    """N18 binary mode: ce_ headers, content-type and the key read exactly as the library reads them."""
    decoded = _assert_agrees(to_binary_event(event))
    assert decoded.schema_version == event.get_attributes().get("schemaversion", "1.0.0")


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(event=cloud_events())
def test_structured_mode_agrees_with_library(event: CloudEvent) -> None:
    """N18 structured mode: the application/cloudevents+json envelope reads as the library reads it."""
    decoded = _assert_agrees(to_structured_event(event))
    assert decoded.schema_major == int(event.get_attributes().get("schemaversion", "1.0.0").split(".")[0])


def test_both_modes_of_one_event_decode_identically() -> None:
    event = CloudEvent(attributes={**BASE, "schemaversion": "2.3.4", "partitionkey": "acct-9",
                                   "time": datetime(2024, 5, 6, 7, 8, 9, tzinfo=UTC)}, data={"amount": 7})
    binary, structured = _assert_agrees(to_binary_event(event)), _assert_agrees(to_structured_event(event))
    assert json.loads(binary.attributes_json) == json.loads(structured.attributes_json)
    assert (binary.schema_major, structured.schema_major) == (2, 2)
    assert binary.partition_key == structured.partition_key == "acct-9"


def test_binary_header_names_are_case_insensitive_like_the_library() -> None:
    message = to_binary_event(CloudEvent(attributes=dict(BASE), data={"a": 1}))
    shouted = KafkaMessage(headers={name.upper(): raw for name, raw in message.headers.items()},
                           key=None, value=message.value)
    _assert_agrees(shouted)


# -- poison classification ------------------------------------------------------------------------

def _binary(**overrides: object) -> KafkaMessage:
    message = to_binary_event(CloudEvent(attributes=dict(BASE), data={"amount": 7}))
    headers = {name: raw for name, raw in message.headers.items() if name[3:] not in overrides}
    headers.update({f"ce_{name}": str(value).encode() for name, value in overrides.items() if value is not None})
    return KafkaMessage(headers=headers, key=None, value=message.value)


def _structured(drop: str) -> KafkaMessage:
    envelope = {**BASE, "data": {"amount": 7}}
    envelope.pop(drop)
    return KafkaMessage(headers={"content-type": b"application/cloudevents+json"}, key=None,
                        value=json.dumps(envelope).encode())


def _poison(message: KafkaMessage, *, max_bytes: int = LIMIT) -> Poison:
    decoded = _decode(message, max_bytes=max_bytes)
    assert isinstance(decoded, Poison), decoded
    return decoded


@pytest.mark.parametrize("value, headers, message", [
    (b"\xff\xfe garbage", {"content-type": b"application/cloudevents+json"}, "structured event is not valid JSON"),
    (b"[1, 2]", {"content-type": b"application/cloudevents+json"}, "structured event is not a JSON object"),
    (b"{}", {"content-type": b"application/cloudevents+avro"}, "unsupported event format"),
])
def test_unreadable_bytes_are_serialization_poison(value, headers, message) -> None:
    poison = _poison(KafkaMessage(headers=headers, key=None, value=value))
    assert poison.error_class == SERIALIZATION
    assert message in poison.message
    assert poison.tenant_raw == ""


@pytest.mark.parametrize("headers", [{}, {"content-type": b"application/json"}, {"x-trace": b"abc"}])
def test_record_without_ce_headers_is_not_a_cloud_event(headers) -> None:
    poison = _poison(KafkaMessage(headers=headers, key=b"k", value=b'{"amount": 7}'))
    assert poison.error_class == VALIDATION
    assert poison.message == "not a CloudEvent: missing required attribute 'specversion'"


@pytest.mark.parametrize("name", ["id", "source", "type", "specversion"])
def test_missing_required_attribute_is_validation_poison_in_both_modes(name) -> None:
    for message in (_binary(**{name: None}), _structured(name)):
        poison = _poison(message)
        assert poison.error_class == VALIDATION
        assert poison.message == f"not a CloudEvent: missing required attribute '{name}'"
        assert poison.tenant_raw == "tenant-acme", "the tenant is readable, so N23 counts the attempt"


def test_missing_tenant_is_validation_poison_in_both_modes() -> None:
    for message in (_binary(tenantid=None), _structured("tenantid")):
        poison = _poison(message)
        assert (poison.error_class, poison.message) == (VALIDATION, "missing required extension 'tenantid'")
        assert poison.tenant_raw == "" and poison.producer_id == "ledger"


def test_other_specversion_and_bad_extensions_are_validation_poison() -> None:
    assert "unsupported specversion" in _poison(_binary(specversion="0.3")).message
    assert "semantic version" in _poison(_binary(schemaversion="two")).message
    assert "RFC 3339" in _poison(_binary(time="yesterday")).message
    assert "UTC offset" in _poison(_binary(time="2024-01-02T03:04:05")).message


@pytest.mark.parametrize("content_type", [b"application/json", b"application/vnd.acme+json; charset=utf-8",
                                          b"text/json"])
def test_data_not_json_when_content_type_says_json(content_type) -> None:
    message = _binary()
    headers = {**message.headers, "content-type": content_type}
    poison = _poison(KafkaMessage(headers=headers, key=None, value=b"{amount: seven"))
    assert (poison.error_class, poison.message) == (SERIALIZATION, "data is not valid JSON")
    assert poison.tenant_raw == "tenant-acme"
    # A deliberate difference: the library falls back to handing such bytes over as a string.
    assert from_kafka(KafkaMessage(headers=headers, key=None, value=b"{amount: seven"),
                      JSONFormat()).get_data() == "{amount: seven"
    # The same bytes under a non-JSON type are fine: stored as a JSON string.
    plain = _decode(KafkaMessage(headers={**message.headers, "content-type": b"text/plain"}, key=None,
                                 value=b"{amount: seven"))
    assert isinstance(plain, Event) and json.loads(plain.data_json) == "{amount: seven"


def test_structured_data_base64_under_json_type_must_hold_json() -> None:
    envelope = {**BASE, "data_base64": "e2Ftb3VudDogc2V2ZW4="}  # "{amount: seven"
    poison = _poison(KafkaMessage(headers={"content-type": b"application/cloudevents+json"}, key=None,
                                  value=json.dumps(envelope).encode()))
    assert (poison.error_class, poison.message) == (SERIALIZATION, "data is not valid JSON")


def test_over_the_size_limit_is_validation_poison_with_the_tenant_kept() -> None:
    message = _binary()
    size = sum(len(name) + len(raw) for name, raw in message.headers.items()) + len(message.value)
    assert isinstance(_decode(message, max_bytes=size), Event), "exactly at the limit is accepted"
    poison = _poison(message, max_bytes=size - 1)
    assert poison.error_class == VALIDATION
    assert poison.message == f"record is {size} bytes, over the {size - 1}-byte limit"
    assert (poison.tenant_raw, poison.producer_id) == ("tenant-acme", "ledger")
    structured = to_structured_event(CloudEvent(attributes=dict(BASE), data={"blob": "x" * 2000}))
    assert "over the 1000-byte limit" in _poison(structured, max_bytes=1000).message


def test_nul_characters_are_validation_poison() -> None:
    message = _binary()
    assert _poison(KafkaMessage(headers=message.headers, key=None, value=b'{"a": "\\u0000"}')).error_class == VALIDATION
    assert "U+0000" in _poison(_binary(subject="a\x00b")).message

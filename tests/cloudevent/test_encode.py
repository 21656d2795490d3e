"""The codec's encoder: what it writes, the hub's decoder and the ``cloudevents`` library read alike.

Pure logic, no service: hypothesis generates events (attributes, extensions, JSON, text or byte
data) and both content modes; each encoded record must decode back to the same event, and the
library's Kafka binding must read the same attributes and data from it.
"""

from __future__ import annotations

import base64
from datetime import UTC, datetime, timedelta, timezone

import orjson
import pytest
from cloudevents.core.bindings.kafka import KafkaMessage, from_kafka
from cloudevents.core.formats.json import JSONFormat
from hypothesis import given, settings
from hypothesis import strategies as st

from hub.cloudevent.decode import Event, decode_parts
from hub.cloudevent.encode import BINARY, MODES, STRUCTURED, InvalidEvent, attribute_text, encode

MAX = 1_048_576
TEXT = st.text(alphabet=st.characters(blacklist_categories=("Cs",), blacklist_characters="\x00"), min_size=1,
               max_size=20)
NAMES = st.from_regex(r"\A[a-z][a-z0-9]{0,11}\Z").filter(
    lambda name: name not in {"specversion", "id", "source", "type", "tenantid", "time", "data",
                              "datacontenttype", "dataschema", "subject", "schemaversion", "delegatedscope",
                              "partitionkey"})
JSON_VALUES = st.recursive(
    st.none() | st.booleans() | st.integers(-(2**63), 2**63 - 1) | st.floats(allow_nan=False, allow_infinity=False)
    | TEXT,
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(TEXT, inner, max_size=4),
    max_leaves=12,
)
TIMES = st.datetimes(min_value=datetime(1970, 1, 2), max_value=datetime(2200, 1, 1),
                     timezones=st.sampled_from([UTC, timezone(timedelta(hours=5, minutes=30))]))


@st.composite
def events(draw) -> tuple[dict, object]:
    attributes = {"specversion": "1.0", "id": draw(TEXT), "source": draw(TEXT), "type": draw(TEXT),
                  "tenantid": draw(TEXT)}
    if draw(st.booleans()):
        attributes["time"] = draw(TIMES)
    if draw(st.booleans()):
        attributes["subject"] = draw(TEXT)
    if draw(st.booleans()):
        attributes["partitionkey"] = draw(TEXT)
    if draw(st.booleans()):
        attributes["schemaversion"] = f"{draw(st.integers(0, 99))}.{draw(st.integers(0, 9))}.0"
    attributes.update(draw(st.dictionaries(NAMES, TEXT, max_size=3)))
    kind = draw(st.sampled_from(["json", "text", "bytes", "none"]))
    if kind == "json":
        return attributes, draw(JSON_VALUES.filter(lambda value: value is not None))
    if kind == "text":
        attributes["datacontenttype"] = "text/plain"
        return attributes, draw(TEXT)
    if kind == "bytes":
        # Not UTF-8 (0xff never is), so both modes keep the bytes as base64: binary mode stores UTF-8
        # octets as text, where a U+0000 is refused like any other (tested with the decoder).
        return attributes, b"\xff" + draw(st.binary(max_size=40))
    return attributes, None


def expected_attributes(attributes: dict, data: object) -> dict:
    """The attributes as stored: text values, and the content type the encoder fills in."""
    stored = {name: attribute_text(value) for name, value in attributes.items()}
    if data is not None and "datacontenttype" not in stored:
        stored["datacontenttype"] = "application/octet-stream" if isinstance(data, bytes) else "application/json"
    return stored


@settings(max_examples=300, deadline=None)
@given(event=events(), mode=st.sampled_from(MODES))
def test_an_encoded_event_decodes_to_itself(event, mode) -> None:
    attributes, data = event
    record = encode(attributes, data, mode=mode, max_bytes=MAX)
    decoded = decode_parts(list(record.headers), record.key, record.value, max_bytes=MAX)
    assert isinstance(decoded, Event)
    assert decoded == record.event
    stored = orjson.loads(decoded.attributes_json)
    marked_base64 = stored.pop("data_base64", None)
    want = expected_attributes(attributes, data)
    if "time" in attributes:  # the decoder keeps the text it read; the instant is what must survive
        assert datetime.fromisoformat(stored.pop("time").upper()) == attributes["time"]
        want.pop("time")
    assert stored == want
    assert (decoded.tenant_id, decoded.source, decoded.ce_id) == (
        attributes["tenantid"], attributes["source"], attributes["id"])
    if data is None:
        assert decoded.data_json is None
    elif isinstance(data, bytes):
        assert marked_base64 is True and base64.b64decode(orjson.loads(decoded.data_json)) == data
    else:
        assert orjson.loads(decoded.data_json) == data


@settings(max_examples=150, deadline=None)
@given(event=events(), mode=st.sampled_from(MODES))
def test_the_cloudevents_library_reads_what_the_encoder_writes(event, mode) -> None:
    attributes, data = event
    record = encode(attributes, data, mode=mode, max_bytes=MAX)
    back = from_kafka(KafkaMessage(headers=dict(record.headers), key=record.key, value=record.value), JSONFormat())
    library = back.get_attributes()
    for name, value in expected_attributes(attributes, data).items():
        if name == "time":
            assert library["time"] == attributes["time"]
        else:
            assert attribute_text(library[name]) == value, name
    read = back.get_data()
    if data is None:
        assert not read
    elif isinstance(data, bytes):
        assert read == data
    elif isinstance(data, str) and mode == BINARY:
        assert read in (data, data.encode())  # the library hands non-JSON binary data back as bytes
    else:
        assert read == data


def _base(**extra) -> dict:
    return {"specversion": "1.0", "id": "e-1", "source": "ledger", "type": "t.posted", "tenantid": "t-1", **extra}


@pytest.mark.parametrize(("attributes", "data", "message"), [
    ({**_base(), "tenantid": None}, {}, "missing required extension 'tenantid'"),
    (_base(specversion="0.3"), {}, "unsupported specversion (the hub reads CloudEvents 1.0)"),
    (_base(id=""), {}, "attribute 'id' must be a non-empty string"),
    (_base(**{"bad-name": "x"}), {}, "invalid attribute name 'bad-name'"),
    (_base(schemaversion="one"), {}, "extension 'schemaversion' is not a semantic version"),
    (_base(time="yesterday"), {}, "attribute 'time' is not an RFC 3339 timestamp"),
    (_base(), {"note": "nul \x00 here"}, "holds a U+0000 character"),
    (_base(), {"big": "x" * MAX}, "over the 1048576-byte limit"),
])
@pytest.mark.parametrize("mode", MODES)
def test_what_ingest_would_dead_letter_is_refused_with_the_decoders_reason(attributes, data, message, mode) -> None:
    with pytest.raises(InvalidEvent) as refused:
        encode(attributes, data, mode=mode, max_bytes=MAX)
    assert message in refused.value.message
    assert refused.value.error_class in ("validation", "serialization")


def test_data_passed_as_an_attribute_is_refused() -> None:
    with pytest.raises(InvalidEvent, match="the data is not an attribute"):
        encode(_base(data={"a": 1}), None, mode=STRUCTURED, max_bytes=MAX)


def test_binary_mode_writes_the_bindings_headers_and_key() -> None:
    moment = datetime(2026, 1, 2, 3, 4, 5, tzinfo=UTC)
    record = encode(_base(time=moment, partitionkey="acct-9"), {"amount": 1}, mode=BINARY, max_bytes=MAX)
    headers = dict(record.headers)
    assert headers["ce_time"] == b"2026-01-02T03:04:05Z"
    assert headers["content-type"] == b"application/json" and "ce_datacontenttype" not in headers
    assert record.key == b"acct-9" and orjson.loads(record.value) == {"amount": 1}


def test_structured_mode_writes_one_envelope() -> None:
    record = encode(_base(), b"\x00\xff", mode=STRUCTURED, max_bytes=MAX)
    assert dict(record.headers) == {"content-type": b"application/cloudevents+json"}
    envelope = orjson.loads(record.value)
    assert envelope["data_base64"] == base64.b64encode(b"\x00\xff").decode()
    assert envelope["datacontenttype"] == "application/octet-stream" and record.key is None


def test_an_unknown_mode_is_a_caller_error() -> None:
    with pytest.raises(ValueError, match="mode must be one of"):
        encode(_base(), {}, mode="avro", max_bytes=MAX)

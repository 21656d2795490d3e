"""CloudEvents 1.0 over Kafka, both content modes (docs/contract-notes.md N18), decoded for the event log.

This follows the CloudEvents Kafka protocol binding and JSON event format exactly, like
``cloudevents.core.bindings.kafka.from_kafka`` does, but without building a library event object
per record: the library costs about 40 µs per record, which is most of the ingest budget
(tests/ingest/test_decode.py proves that both modes agree with the library on the same records).

Mode detection is the spec's: a ``content-type`` header starting ``application/cloudevents`` means
structured mode, anything else binary mode. One exception, for producers that use the library's
older API (``cloudevents.v1.kafka.to_structured``): it writes a structured envelope but labels the
record with the *data's* content type (``application/json``, or no header at all) and sends no
``ce_`` headers. So a record with no ``ce_specversion`` header whose value is a JSON object holding
``specversion`` is read as structured, its content-type header standing for ``datacontenttype``
when the envelope names none (as that API's ``from_structured`` reads it back). Binary records
with ``ce_specversion`` never pay for this test. A record that cannot be stored is *poison*: it is
returned as a :class:`Poison` with an error class (``serialization`` when the bytes cannot be
read, ``validation`` when they do not make a valid hub event) and a message naming the problem.

This is the ingest hot path (one call per consumed record), so what repeats from record to record
(header names, content types; schema versions and attribute names in :mod:`.attributes`) is
classified once and cached, and each record is walked as few times as possible.
"""

from __future__ import annotations

import base64
import binascii
import logging
import re
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

import orjson

from hub.cloudevent.attributes import (
    DEFAULT_SCHEMA_VERSION,
    SERIALIZATION,
    VALIDATION,
    PoisonRecord,
    binary_attributes,
    cacheable,
    scan_headers,
    text,
    validate,
)

from hub.cloudevent.jsontext import escapes_nul, has_nul, loads_json

log = logging.getLogger("hub.ingest.decode")

__all__ = ["DEFAULT_SCHEMA_VERSION", "SERIALIZATION", "VALIDATION", "Event", "Poison", "PoisonRecord",
           "decode_parts", "decode_record", "has_nul", "is_json_type", "stored_event"]

STRUCTURED_PREFIX = "application/cloudevents"
STRUCTURED_JSON = "application/cloudevents+json"

# The same JSON media type test as the library's JSON format.
_JSON_TYPE = re.compile(r"^(application|text)/([a-zA-Z0-9\-\.]+\+)?json(;.*)?$")
_BINARY, _STRUCTURED, _UNSUPPORTED = "binary", "structured", "unsupported"
# A content-type header's raw value -> (text, content mode, whether the data is JSON): records of
# a topic share one or two content types, so each is read once. No header: binary mode, JSON data.
_CONTENT_TYPES: dict[bytes | str | None, tuple[str | None, str, bool]] = {None: (None, _BINARY, True)}


@dataclass(slots=True)
class Event:
    """One decoded CloudEvent, ready to be written to the event log."""

    tenant_id: str
    source: str
    ce_id: str
    event_type: str
    schema_version: str
    schema_major: int
    delegated_scope: str | None
    partition_key: str | None
    time: datetime | None
    attributes_json: str
    data_json: str | None
    topic: str = ""
    partition: int = 0
    offset: int = 0
    record: Any = field(default=None, repr=False)  # the consumed message, for the DLQ if rejected
    seq: int = 0


@dataclass(slots=True)
class Poison:
    """A record that cannot be stored: it goes to the dead-letter topic, original bytes intact."""

    error_class: str
    message: str
    tenant_raw: str
    producer_id: str
    topic: str = ""
    partition: int = 0
    offset: int = 0
    timestamp_ms: int = 0
    record: Any = field(default=None, repr=False)


def is_json_type(content_type: str | None) -> bool:
    """Whether data of this content type is JSON (an absent type means JSON, as in the JSON format)."""
    return content_type is None or bool(_JSON_TYPE.match(content_type.lower()))


def _content_type(raw: bytes | str) -> tuple[str, str, bool]:
    """A content-type header not seen before: (text, content mode, whether the data is JSON)."""
    content_type = text(raw, "content-type header")
    if not content_type.lower().startswith(STRUCTURED_PREFIX):
        mode = _BINARY
    elif content_type.split(";", 1)[0].strip().lower() == STRUCTURED_JSON:
        mode = _STRUCTURED
    else:
        mode = _UNSUPPORTED
    known = (content_type, mode, is_json_type(content_type))
    if cacheable(_CONTENT_TYPES, len(raw)):
        _CONTENT_TYPES[raw] = known
    return known


def _binary_data(value: bytes | None, json_data: bool, attributes: dict[str, Any]) -> str | None:
    """Binary-mode data as JSON text: JSON data (JSON_DATA) as sent, other data as a JSON string."""
    if not value:
        return None
    if json_data:
        parsed = loads_json(value, "data")
        if escapes_nul(value) and has_nul(parsed):
            raise PoisonRecord(VALIDATION, "data holds a U+0000 character")
        return value.decode()  # UTF-8; naming the codec costs a lookup per call
    try:
        decoded = value.decode()
    except UnicodeDecodeError:
        decoded = None
    if decoded is None:
        attributes["data_base64"] = True  # not an attribute name: marks base64 text in the data column
        return orjson.dumps(base64.b64encode(value).decode("ascii")).decode()
    if "\x00" in decoded:
        raise PoisonRecord(VALIDATION, "data holds a U+0000 character")
    return orjson.dumps(decoded).decode()


def _structured(
    value: bytes | None, key: bytes | None, content_type: str, mode: str
) -> tuple[dict[str, Any], str | None]:
    """Structured mode: (attributes, data JSON) of an ``application/cloudevents+json`` record."""
    if mode == _UNSUPPORTED:
        raise PoisonRecord(SERIALIZATION, f"unsupported event format {content_type.split(';', 1)[0][:64]}")
    # The data member is written back out, so integers beyond 64 bits must be read exactly.
    envelope = loads_json(value or b"", "structured event", exact=True)
    if not isinstance(envelope, dict):
        raise PoisonRecord(SERIALIZATION, "structured event is not a JSON object")
    return _from_envelope(envelope, value, key)


def _unlabelled_envelope(value: bytes | None, content_type: str | None) -> dict[str, Any] | None:
    """The envelope of a structured event sent without the structured content type, or None.

    Only asked of records with no ``ce_specversion`` header (otherwise poison): the value must be
    a JSON object holding ``specversion``. A content-type header then names the data's type.
    """
    if not value or value.find(b'"specversion"') < 0:  # a C-speed scan before any parsing
        return None
    try:
        envelope = loads_json(value, "structured event", exact=True)
    except PoisonRecord:
        return None
    if not isinstance(envelope, dict) or "specversion" not in envelope:
        return None
    if content_type is not None and "datacontenttype" not in envelope:
        envelope["datacontenttype"] = content_type
    return envelope


def _from_envelope(
    envelope: dict[str, Any], value: bytes | None, key: bytes | None
) -> tuple[dict[str, Any], str | None]:
    """A parsed structured envelope as (attributes, data JSON); VALUE is its raw JSON text."""
    if value and escapes_nul(value) and has_nul(envelope):
        raise PoisonRecord(VALIDATION, "event holds a U+0000 character")
    missing = object()
    data = envelope.pop("data", missing)
    data_b64 = envelope.pop("data_base64", missing)
    if key is not None:
        envelope["partitionkey"] = text(key, "record key")
    if data is not missing and data_b64 is not missing:
        raise PoisonRecord(VALIDATION, "event has both data and data_base64")
    if data is not missing:
        return envelope, None if data is None else orjson.dumps(data).decode()
    if data_b64 is missing or data_b64 is None:
        return envelope, None
    return envelope, _structured_base64(data_b64, envelope)


def _structured_base64(encoded: Any, envelope: dict[str, Any]) -> str:
    """A structured event's ``data_base64`` as data JSON, as binary mode would store those bytes."""
    try:
        raw = base64.b64decode(encoded, validate=True) if isinstance(encoded, str) else None
    except (binascii.Error, ValueError):
        raw = None
    if raw is None:
        raise PoisonRecord(SERIALIZATION, "data_base64 is not base64")
    if isinstance(envelope.get("datacontenttype"), str) and is_json_type(envelope["datacontenttype"]):
        return _binary_data(raw, True, envelope) or "null"
    envelope["data_base64"] = True
    return orjson.dumps(encoded).decode()


def _readable(attributes: dict[str, Any], name: str) -> str:
    """An attribute for the dead-letter headers: the text, or "" when it is absent or not text."""
    value = attributes.get(name)
    return value if isinstance(value, str) else ""


def decode_parts(
    headers: list[tuple[str, bytes | None]] | None, key: bytes | None, value: bytes | None, *, max_bytes: int
) -> Event | Poison:
    """Decode one record given as its headers, key and value."""
    attributes: dict[str, Any] = {}
    try:
        header_bytes, raw_type, ce = scan_headers(headers, key)
        content_type, mode, json_data = _CONTENT_TYPES.get(raw_type) or _content_type(raw_type)
        size = header_bytes + (len(value) if value else 0)
        if size > max_bytes:
            attributes = binary_attributes(ce, None, None)
            raise PoisonRecord(VALIDATION, f"record is {size} bytes, over the {max_bytes}-byte limit")
        if mode != _BINARY:
            attributes, data_json = _structured(value, key, content_type, mode)
        elif "specversion" not in ce and (envelope := _unlabelled_envelope(value, content_type)) is not None:
            attributes, data_json = _from_envelope(envelope, value, key)
        else:
            attributes = binary_attributes(ce, content_type, key)
            data_json = _binary_data(value, json_data, attributes)
            try:  # joined, the values take one C-speed search
                has_nul = "\x00" in "".join(attributes.values())
            except TypeError:  # the data's base64 mark (True) is not text
                has_nul = any(isinstance(item, str) and "\x00" in item for item in attributes.values())
            if has_nul:
                raise PoisonRecord(VALIDATION, "an attribute holds a U+0000 character")
        major, event_time = validate(attributes)
    except PoisonRecord as poison:
        return Poison(poison.error_class, poison.message, _readable(attributes, "tenantid"),
                      _readable(attributes, "source"))
    return stored_event(attributes, major, event_time, data_json)


def stored_event(attributes: dict[str, Any], major: int, event_time: datetime | None, data_json: str | None) -> Event:
    """The Event of valid ATTRIBUTES (``validate`` gave MAJOR and EVENT_TIME) and their data as JSON text."""
    # Positional, in field order (tenant_id, source, ce_id, event_type, schema_version, schema_major,
    # delegated_scope, partition_key, time, attributes_json, data_json): keywords cost ~0.4 µs a record.
    return Event(
        attributes["tenantid"], attributes["source"], attributes["id"], attributes["type"],
        attributes.get("schemaversion", DEFAULT_SCHEMA_VERSION), major,
        attributes.get("delegatedscope"), attributes.get("partitionkey"), event_time,
        orjson.dumps(attributes).decode(), data_json,
    )


def decode_record(record: Any, *, max_bytes: int) -> Event | Poison:
    """Decode one consumed ``confluent_kafka.Message``; whatever it holds, the answer is an Event or Poison."""
    try:
        decoded = decode_parts(record.headers(), record.key(), record.value(), max_bytes=max_bytes)
    except Exception as exc:  # noqa: BLE001 (a decoder bug must not stall the partition)
        log.error("decoder failed on a record; quarantining it", extra={"fields": {
            "topic": record.topic(), "partition": record.partition(), "offset": record.offset(),
            "error": type(exc).__name__}})
        decoded = Poison(SERIALIZATION, f"the record could not be decoded ({type(exc).__name__})", "", "")
    decoded.topic, decoded.partition, decoded.offset = record.topic(), record.partition(), record.offset()
    decoded.record = record
    if isinstance(decoded, Poison):
        decoded.timestamp_ms = record.timestamp()[1]
    return decoded

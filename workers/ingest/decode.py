"""CloudEvents 1.0 over Kafka, both content modes (decisions.md D18), decoded for the event log.

This follows the CloudEvents Kafka protocol binding and JSON event format exactly, like
``cloudevents.core.bindings.kafka.from_kafka`` does, but without building a library event object
per record: the library costs about 40 µs per record, which is most of the ingest budget
(tests/ingest/test_decode.py proves that both modes agree with the library on the same records).

Mode detection is the spec's: a ``content-type`` header starting ``application/cloudevents`` means
structured mode, anything else binary mode. A record that cannot be stored is *poison*: it is
returned as a :class:`Poison` with an error class (``serialization`` when the bytes cannot be
read, ``validation`` when they do not make a valid hub event) and a message naming the problem.
"""

from __future__ import annotations

import base64
import binascii
import json
import re
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

import orjson

CE_PREFIX = "ce_"
CONTENT_TYPE = "content-type"
STRUCTURED_PREFIX = "application/cloudevents"
STRUCTURED_JSON = "application/cloudevents+json"
DEFAULT_SCHEMA_VERSION = "1.0.0"
SERIALIZATION = "serialization"
VALIDATION = "validation"

# The same JSON media type test as the library's JSON format.
_JSON_TYPE = re.compile(r"^(application|text)/([a-zA-Z0-9\-\.]+\+)?json(;.*)?$")
_ATTRIBUTE_NAME = re.compile(r"^[a-z0-9]+$")
_SEMVER = re.compile(r"^(0|[1-9]\d*)\.(0|[1-9]\d*)\.(0|[1-9]\d*)(?:-[0-9A-Za-z.-]+)?(?:\+[0-9A-Za-z.-]+)?$")
# orjson reads integers beyond 64 bits as floats; such structured records use the exact parser.
_DIGIT_MAP = bytes(0x30 if 0x30 <= byte <= 0x39 else 0x20 for byte in range(256))
_LONG_RUN = b"0" * 19


def _has_long_number(raw: bytes) -> bool:
    # translate() + find() is a C-speed scan, several times faster than a regex here.
    return _LONG_RUN in raw.translate(_DIGIT_MAP)
_REQUIRED = ("id", "source", "type")
_STRING_ATTRIBUTES = ("datacontenttype", "dataschema", "subject", "tenantid", "schemaversion",
                      "delegatedscope", "partitionkey")


class PoisonRecord(Exception):
    """Raised inside the decoder; turned into a :class:`Poison` at the boundary."""

    def __init__(self, error_class: str, message: str) -> None:
        super().__init__(message)
        self.error_class = error_class
        self.message = message


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


def _text(raw: bytes | str | None, what: str) -> str:
    if isinstance(raw, str):
        return raw
    try:
        return (raw or b"").decode("utf-8")
    except UnicodeDecodeError:
        raise PoisonRecord(SERIALIZATION, f"{what} is not UTF-8") from None


def _loads(raw: bytes, what: str, *, exact: bool = False) -> Any:
    try:
        if exact and _has_long_number(raw):
            return json.loads(raw)
        return orjson.loads(raw)
    except (orjson.JSONDecodeError, ValueError, RecursionError):
        raise PoisonRecord(SERIALIZATION, f"{what} is not valid JSON") from None


def _has_nul(value: Any) -> bool:
    """Whether any string in a JSON value holds U+0000, which PostgreSQL cannot store."""
    if isinstance(value, str):
        return "\x00" in value
    if isinstance(value, dict):
        return any("\x00" in key or _has_nul(item) for key, item in value.items())
    if isinstance(value, list):
        return any(_has_nul(item) for item in value)
    return False


def _scan_headers(
    headers: list[tuple[str, bytes | None]] | None, key: bytes | None
) -> tuple[int, bytes | None, dict[str, bytes]]:
    """One pass over the headers: (bytes of headers and key, raw content-type, raw ``ce_`` headers)."""
    size = len(key) if key else 0
    content_type: bytes | None = None
    ce: dict[str, bytes] = {}
    for name, raw in headers or ():
        if raw is None:
            continue
        size += len(name) + len(raw)
        lowered = name if name.islower() else name.lower()
        if lowered.startswith(CE_PREFIX):
            ce[lowered[3:]] = raw  # the last header of a name wins, as in the library
        elif lowered == CONTENT_TYPE:
            content_type = raw
    return size, content_type, ce


def _binary_attributes(ce: dict[str, bytes], content_type: str | None, key: bytes | None) -> dict[str, Any]:
    try:
        attributes: dict[str, Any] = {name: raw.decode("utf-8") for name, raw in ce.items()}
    except UnicodeDecodeError:
        raise PoisonRecord(SERIALIZATION, "a ce_ header is not UTF-8") from None
    if content_type is not None:
        attributes["datacontenttype"] = content_type
    if key is not None:
        attributes["partitionkey"] = _text(key, "record key")
    return attributes


def _binary_data(value: bytes | None, content_type: str | None, attributes: dict[str, Any]) -> str | None:
    if not value:
        return None
    if is_json_type(content_type):
        parsed = _loads(value, "data")
        if b"\\u0000" in value and _has_nul(parsed):
            raise PoisonRecord(VALIDATION, "data holds a U+0000 character")
        return value.decode("utf-8")
    try:
        text = value.decode("utf-8")
    except UnicodeDecodeError:
        text = None
    if text is None:
        attributes["data_base64"] = True  # not an attribute name: marks base64 text in the data column
        return orjson.dumps(base64.b64encode(value).decode("ascii")).decode()
    if "\x00" in text:
        raise PoisonRecord(VALIDATION, "data holds a U+0000 character")
    return orjson.dumps(text).decode()


def _structured(value: bytes | None, key: bytes | None, content_type: str) -> tuple[dict[str, Any], str | None]:
    if content_type.split(";", 1)[0].strip().lower() != STRUCTURED_JSON:
        raise PoisonRecord(SERIALIZATION, f"unsupported event format {content_type.split(';', 1)[0][:64]}")
    # The data member is written back out, so integers beyond 64 bits must be read exactly.
    envelope = _loads(value or b"", "structured event", exact=True)
    if not isinstance(envelope, dict):
        raise PoisonRecord(SERIALIZATION, "structured event is not a JSON object")
    if b"\\u0000" in (value or b"") and _has_nul(envelope):
        raise PoisonRecord(VALIDATION, "event holds a U+0000 character")
    missing = object()
    data = envelope.pop("data", missing)
    data_b64 = envelope.pop("data_base64", missing)
    if key is not None:
        envelope["partitionkey"] = _text(key, "record key")
    if data is not missing and data_b64 is not missing:
        raise PoisonRecord(VALIDATION, "event has both data and data_base64")
    if data is not missing:
        return envelope, None if data is None else orjson.dumps(data).decode()
    if data_b64 is missing or data_b64 is None:
        return envelope, None
    return envelope, _structured_base64(data_b64, envelope)


def _structured_base64(encoded: Any, envelope: dict[str, Any]) -> str:
    try:
        raw = base64.b64decode(encoded, validate=True) if isinstance(encoded, str) else None
    except (binascii.Error, ValueError):
        raw = None
    if raw is None:
        raise PoisonRecord(SERIALIZATION, "data_base64 is not base64")
    if isinstance(envelope.get("datacontenttype"), str) and is_json_type(envelope["datacontenttype"]):
        return _binary_data(raw, envelope["datacontenttype"], envelope) or "null"
    envelope["data_base64"] = True
    return orjson.dumps(encoded).decode()


def _parse_time(value: Any) -> datetime:
    if not isinstance(value, str) or not value:
        raise PoisonRecord(VALIDATION, "attribute 'time' is not a timestamp")
    try:
        parsed = datetime.fromisoformat(value.upper())
    except ValueError:
        raise PoisonRecord(VALIDATION, "attribute 'time' is not an RFC 3339 timestamp") from None
    if parsed.tzinfo is None:
        raise PoisonRecord(VALIDATION, "attribute 'time' has no UTC offset")
    return parsed


_VALID_NAMES: set[str] = set()


def _check_names(attributes: dict[str, Any]) -> None:
    for name, value in attributes.items():
        if name in _VALID_NAMES:
            continue
        if name == "data_base64" and value is True:
            continue
        if name == "data" or not _ATTRIBUTE_NAME.match(name):
            raise PoisonRecord(VALIDATION, f"invalid attribute name {name[:40]!r}")
        if len(_VALID_NAMES) < 10_000:  # names repeat; skip the regex for the ones seen before
            _VALID_NAMES.add(name)


def _validate(attributes: dict[str, Any]) -> tuple[int, datetime | None]:
    """Check the attributes as the CloudEvents 1.0 spec and D18 require; return (major, time)."""
    if "specversion" not in attributes:
        raise PoisonRecord(VALIDATION, "not a CloudEvent: missing required attribute 'specversion'")
    if attributes["specversion"] != "1.0":
        raise PoisonRecord(VALIDATION, "unsupported specversion (the hub reads CloudEvents 1.0)")
    for name in _REQUIRED:
        value = attributes.get(name)
        if value is None:
            raise PoisonRecord(VALIDATION, f"not a CloudEvent: missing required attribute '{name}'")
        if not isinstance(value, str) or not value:
            raise PoisonRecord(VALIDATION, f"attribute '{name}' must be a non-empty string")
    _check_names(attributes)
    for name in _STRING_ATTRIBUTES:
        value = attributes.get(name)
        if value is not None and (not isinstance(value, str) or not value):
            raise PoisonRecord(VALIDATION, f"attribute '{name}' must be a non-empty string")
    if "tenantid" not in attributes:
        raise PoisonRecord(VALIDATION, "missing required extension 'tenantid'")
    matched = _SEMVER.match(attributes.get("schemaversion", DEFAULT_SCHEMA_VERSION))
    if matched is None:
        raise PoisonRecord(VALIDATION, "extension 'schemaversion' is not a semantic version")
    event_time = _parse_time(attributes["time"]) if "time" in attributes else None
    return int(matched.group(1)), event_time


def _readable(attributes: dict[str, Any], name: str) -> str:
    value = attributes.get(name)
    return value if isinstance(value, str) else ""


def decode_parts(
    headers: list[tuple[str, bytes | None]] | None, key: bytes | None, value: bytes | None, *, max_bytes: int
) -> Event | Poison:
    """Decode one record given as its headers, key and value."""
    attributes: dict[str, Any] = {}
    try:
        header_bytes, raw_type, ce = _scan_headers(headers, key)
        content_type = None if raw_type is None else _text(raw_type, "content-type header")
        size = header_bytes + (len(value) if value else 0)
        if size > max_bytes:
            attributes = _binary_attributes(ce, None, None)
            raise PoisonRecord(VALIDATION, f"record is {size} bytes, over the {max_bytes}-byte limit")
        if content_type is not None and content_type.lower().startswith(STRUCTURED_PREFIX):
            attributes, data_json = _structured(value, key, content_type)
        else:
            attributes = _binary_attributes(ce, content_type, key)
            data_json = _binary_data(value, content_type, attributes)
            if any("\x00" in item for item in attributes.values() if isinstance(item, str)):
                raise PoisonRecord(VALIDATION, "an attribute holds a U+0000 character")
        major, event_time = _validate(attributes)
    except PoisonRecord as poison:
        return Poison(poison.error_class, poison.message, _readable(attributes, "tenantid"),
                      _readable(attributes, "source"))
    return Event(
        tenant_id=attributes["tenantid"], source=attributes["source"], ce_id=attributes["id"],
        event_type=attributes["type"], schema_version=attributes.get("schemaversion", DEFAULT_SCHEMA_VERSION),
        schema_major=major, delegated_scope=attributes.get("delegatedscope"),
        partition_key=attributes.get("partitionkey"), time=event_time,
        attributes_json=orjson.dumps(attributes).decode(), data_json=data_json,
    )


def decode_record(record: Any, *, max_bytes: int) -> Event | Poison:
    """Decode one consumed ``confluent_kafka.Message``."""
    decoded = decode_parts(record.headers(), record.key(), record.value(), max_bytes=max_bytes)
    decoded.topic, decoded.partition, decoded.offset = record.topic(), record.partition(), record.offset()
    decoded.record = record
    if isinstance(decoded, Poison):
        decoded.timestamp_ms = record.timestamp()[1]
    return decoded

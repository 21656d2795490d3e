"""CloudEvents 1.0 encoded for Kafka in either content mode, checked by the hub's own decoder first.

What the ``cloudevents`` library's Kafka binding writes (``to_binary``/``to_structured``), without
building a library event: binary mode puts each attribute in a ``ce_`` header (``datacontenttype``
as ``content-type``) and the data as the value; structured mode writes one
``application/cloudevents+json`` envelope. In both modes the ``partitionkey`` extension is the
record key. Every encoded record is read back by :func:`hub.cloudevent.decode.decode_parts` before
it is handed out, so a publisher can never produce what ingest would dead-letter: the refusal
(:class:`InvalidEvent`) carries the decoder's own error class and message.

One shortcut (N63): a binary record of JSON data whose attributes are all known names skips
re-reading its own bytes. The decoder would find exactly the attribute texts and the JSON text
this module just wrote, so the checks that can still fail (size, U+0000, ``validate``) run on
those, and only an acceptance is taken from them: anything they would refuse goes to the decoder,
whose answer stands (tests/cloudevent/test_readback.py proves both give the same Event).
"""

from __future__ import annotations

import base64
from collections.abc import Mapping
from dataclasses import dataclass
from datetime import datetime
from typing import Any, NamedTuple

import orjson

from hub import tracing
from hub.cloudevent.attributes import CE_PREFIX, CONTENT_TYPE, PoisonRecord, cacheable, known_names, validate
from hub.cloudevent.decode import STRUCTURED_JSON, Event, Poison, decode_parts, is_json_type, stored_event

BINARY, STRUCTURED = "binary", "structured"
MODES = (BINARY, STRUCTURED)
JSON = "application/json"
OCTETS = "application/octet-stream"
_HEADER_NAMES: dict[tuple[str, ...], tuple[list[str], int]] = {}  # see _header_names


class InvalidEvent(ValueError):
    """The event is not one the hub would store; ``error_class`` and ``message`` are the decoder's."""

    def __init__(self, error_class: str, message: str) -> None:
        super().__init__(message)
        self.error_class = error_class
        self.message = message


@dataclass(frozen=True, slots=True)
class KafkaRecord:
    """One encoded event, as produced: key, value and headers (the topic is the producer's business)."""

    key: bytes | None
    value: bytes | None
    headers: tuple[tuple[str, bytes], ...]
    event: Event  # the event as ingest will store it (read back by the decoder)


def attribute_text(value: Any) -> str:
    """An attribute value as the binary mode writes it (a timestamp in RFC 3339, ``Z`` for UTC)."""
    if isinstance(value, str):  # most values are: asked first
        return value
    if isinstance(value, datetime):
        written = value.isoformat()
        return written[:-6] + "Z" if written.endswith("+00:00") else written
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(value)


def _header_names(names: tuple[str, ...]) -> tuple[list[str], int]:
    """The binary-mode header names of attribute NAMES, and their length in all; cached per tuple of names
    (a producer writes a few shapes of attributes over and over)."""
    known = _HEADER_NAMES.get(names)
    if known is None:
        headers = [CONTENT_TYPE if name == "datacontenttype" else f"{CE_PREFIX}{name}" for name in names]
        known = (headers, sum(map(len, headers)))
        if cacheable(_HEADER_NAMES, sum(map(len, names))):
            _HEADER_NAMES[names] = known
    return known


class _Written(NamedTuple):
    """What a binary record's headers say: each attribute's text, and the headers' bytes (names and values)."""

    texts: dict[str, str]
    header_bytes: int


def _binary(attributes: Mapping[str, Any], data: Any,
            content_type: str | None) -> tuple[bytes | None, list, _Written]:
    """(value, headers, what the headers say) of a binary-mode record."""
    texts = {name: value if value.__class__ is str else attribute_text(value)  # most are text: no call
             for name, value in attributes.items() if value is not None}
    names, names_bytes = _header_names(tuple(texts))
    raws = list(map(str.encode, texts.values()))
    headers = list(zip(names, raws, strict=True))
    written = _Written(texts, names_bytes + sum(map(len, raws)))
    if data is None:
        return None, headers, written
    if isinstance(data, bytes | bytearray):
        return bytes(data), headers, written
    if is_json_type(content_type):
        return orjson.dumps(data), headers, written
    return str(data).encode(), headers, written


def _written_json(written: _Written, key: bytes | None, value: bytes, max_bytes: int) -> Event | None:
    """The decoder's Event of a binary record just written with JSON data (VALUE is orjson's text of it)
    and the headers WRITTEN says, when the checks that can fail pass; None when one may not: ask the decoder.

    What the decoder would do with the record: read each ``ce_`` header back to its text (every name
    is a known lower-case one), then ``datacontenttype`` from ``content-type``, the key (the
    ``partitionkey`` text, already in place), the JSON data as written, then refuse an oversized
    record, a U+0000 anywhere, or attributes ``validate`` refuses.
    """
    texts = written.texts
    if texts.get("datacontenttype") != JSON or "specversion" not in texts or not known_names(texts):
        return None
    size = (len(key) if key else 0) + len(value) + written.header_bytes
    if size > max_bytes or value.find(b"\\u0000") >= 0:  # JSON text holds U+0000 only as this escape
        return None
    attributes: dict[str, Any] = dict(texts)
    del attributes["datacontenttype"]
    attributes["datacontenttype"] = JSON  # last, as the decoder adds it after the ce_ headers
    if "\x00" in "".join(attributes.values()):
        return None
    try:
        major, event_time = validate(attributes)
    except PoisonRecord:
        return None
    return stored_event(attributes, major, event_time, value.decode())


def _structured(attributes: Mapping[str, Any], data: Any, content_type: str | None) -> tuple[bytes, list]:
    """(value, headers) of a structured-mode record: one JSON envelope."""
    envelope: dict[str, Any] = {name: attribute_text(value) if isinstance(value, datetime) else value
                                for name, value in attributes.items() if value is not None}
    if isinstance(data, bytes | bytearray):
        envelope["data_base64"] = base64.b64encode(bytes(data)).decode("ascii")
    elif data is not None:
        envelope["data"] = data if is_json_type(content_type) else str(data)
    return orjson.dumps(envelope), [(CONTENT_TYPE, STRUCTURED_JSON.encode())]


def encode(attributes: Mapping[str, Any], data: Any = None, *, mode: str = BINARY,
           max_bytes: int) -> KafkaRecord:
    """The Kafka record of one event in MODE; raises :class:`InvalidEvent` when ingest would refuse it.

    ATTRIBUTES are the context attributes and extensions (``time`` may be a datetime); DATA is a
    JSON value, text, or bytes; MAX_BYTES is ingest's record limit (``kafka_max_record_bytes``). With data and no ``datacontenttype``, the data is JSON (bytes: octets).
    """
    if mode not in MODES:
        raise ValueError(f"mode must be one of {', '.join(MODES)}")
    if "data" in attributes or "data_base64" in attributes:
        raise InvalidEvent("validation", "the data is not an attribute; pass it as the data")
    attributes = dict(attributes)
    if tracing.enabled() and attributes.get(tracing.TRACEPARENT) is None:
        attributes[tracing.TRACEPARENT] = tracing.traceparent_of()  # the producer's context (N59)
    if data is not None and attributes.get("datacontenttype") is None:
        attributes["datacontenttype"] = OCTETS if isinstance(data, bytes | bytearray) else JSON
    content_type = attributes.get("datacontenttype")
    written = None
    try:
        if mode == STRUCTURED:
            value, headers = _structured(attributes, data, content_type)
        else:
            value, headers, written = _binary(attributes, data, content_type)
    except (TypeError, orjson.JSONEncodeError) as exc:
        raise InvalidEvent("serialization", f"the event cannot be written as JSON ({exc})") from None
    partition_key = attributes.get("partitionkey")
    key = attribute_text(partition_key).encode() if partition_key is not None else None
    decoded = None
    if written is not None and value is not None and not isinstance(data, bytes | bytearray):
        decoded = _written_json(written, key, value, max_bytes)
    if decoded is None:
        decoded = decode_parts(headers, key, value, max_bytes=max_bytes)
    if isinstance(decoded, Poison):
        raise InvalidEvent(decoded.error_class, decoded.message)
    return KafkaRecord(key, value, tuple(headers), decoded)

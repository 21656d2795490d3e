"""CloudEvents 1.0 attributes for the codec (docs/contract-notes.md N18): read from binary-mode
headers, and checked in both content modes.

Split out of :mod:`hub.cloudevent.decode` so each module stays short. Everything here runs once
per record on the ingest hot path, so what repeats from record to record (header names, attribute
names, schema versions) is classified once and cached. The error classes and messages are the
decoder's contract (tests/ingest/test_decode.py).
"""

from __future__ import annotations

import re
from datetime import datetime
from typing import Any

SERIALIZATION = "serialization"
VALIDATION = "validation"
DEFAULT_SCHEMA_VERSION = "1.0.0"
CE_PREFIX = "ce_"
CONTENT_TYPE = "content-type"

_ATTRIBUTE_NAME = re.compile(r"^[a-z0-9]+$")
_SEMVER = re.compile(r"^(0|[1-9]\d*)\.(0|[1-9]\d*)\.(0|[1-9]\d*)(?:-[0-9A-Za-z.-]+)?(?:\+[0-9A-Za-z.-]+)?$")
_REQUIRED = ("id", "source", "type")
MAX_MAJOR_DIGITS = 9  # the event log's schema_major is a 32-bit integer
_STRING_ATTRIBUTES = ("datacontenttype", "dataschema", "subject", "tenantid", "schemaversion",
                      "delegatedscope", "partitionkey")
_MISSING: Any = object()
_CONTENT_TYPE_HEADER: Any = object()  # the kind of a content-type header (``_header_kind``)

# Caches of values that repeat from record to record. Both bounds keep a producer that sends a
# new value on every record from growing them without limit: past them, values are not cached.
CACHE_ENTRIES = 10_000
CACHE_KEY_CHARS = 256
_HEADER_KINDS: dict[str, Any] = {}
_VALID_NAMES: set[str] = set()
_SCHEMA_MAJORS: dict[str, int] = {}


class PoisonRecord(Exception):
    """Raised inside the decoder; turned into a :class:`Poison` at the boundary."""

    def __init__(self, error_class: str, message: str) -> None:
        super().__init__(message)
        self.error_class = error_class
        self.message = message


def cacheable(cache: dict[Any, Any] | set[Any], chars: int) -> bool:
    """Whether an entry whose key is CHARS long may be added to CACHE within the cache bounds."""
    return len(cache) < CACHE_ENTRIES and chars <= CACHE_KEY_CHARS


def text(raw: bytes | str | None, what: str) -> str:
    """Header or key bytes as text; poison when they are not UTF-8."""
    if isinstance(raw, str):
        return raw
    try:
        return (raw or b"").decode()  # UTF-8
    except UnicodeDecodeError:
        raise PoisonRecord(SERIALIZATION, f"{what} is not UTF-8") from None


def _header_kind(name: str) -> Any:
    """What a header is: a ``ce_`` header's attribute name, the content type, or None (neither)."""
    lowered = name if name.islower() else name.lower()  # names are case-insensitive, as in the library
    if lowered.startswith(CE_PREFIX):
        kind = lowered[3:]
    else:
        kind = _CONTENT_TYPE_HEADER if lowered == CONTENT_TYPE else None
    if cacheable(_HEADER_KINDS, len(name)):
        _HEADER_KINDS[name] = kind
    return kind


def scan_headers(
    headers: list[tuple[str, bytes | None]] | None, key: bytes | None
) -> tuple[int, bytes | None, dict[str, str | None]]:
    """One pass over the headers: (bytes of headers and key, raw content-type, ``ce_`` headers as text).

    A ``ce_`` header that is not UTF-8 reads as None: only binary mode rejects it, and a later
    header of the same name may still replace it (:func:`binary_attributes`).
    """
    size = len(key) if key else 0
    content_type: bytes | None = None
    ce: dict[str, str | None] = {}
    kinds = _HEADER_KINDS
    for name, raw in headers or ():
        if raw is None:
            continue
        size += len(name) + len(raw)
        kind = kinds.get(name, _MISSING)  # one dict hit instead of lower(), startswith() and a slice
        if kind is _MISSING:
            kind = _header_kind(name)
        if kind is _CONTENT_TYPE_HEADER:
            content_type = raw
        elif kind is not None:
            try:  # decoded here rather than in a second loop: the headers are walked once
                ce[kind] = raw.decode()  # the last header of a name wins, as in the library
            except UnicodeDecodeError:
                ce[kind] = None
    return size, content_type, ce


def binary_attributes(ce: dict[str, str | None], content_type: str | None, key: bytes | None) -> dict[str, Any]:
    """The binary-mode attributes: the ``ce_`` headers, then the content type and the key, as text.

    CE, the headers read by :func:`scan_headers`, becomes the attributes (it is the record's own).
    """
    if None in ce.values():
        raise PoisonRecord(SERIALIZATION, "a ce_ header is not UTF-8")
    attributes: dict[str, Any] = ce
    if content_type is not None:
        attributes["datacontenttype"] = content_type
    if key is not None:
        attributes["partitionkey"] = text(key, "record key")
    return attributes


def _check_names(attributes: dict[str, Any]) -> None:
    """Reject a name the spec does not allow; remember the valid ones."""
    for name, value in attributes.items():
        if name in _VALID_NAMES:
            continue
        if name == "data_base64" and value is True:
            continue  # not an attribute: the decoder's mark of base64 text in the data column
        if name == "data" or not _ATTRIBUTE_NAME.match(name):
            raise PoisonRecord(VALIDATION, f"invalid attribute name {name[:40]!r}")
        if cacheable(_VALID_NAMES, len(name)):
            _VALID_NAMES.add(name)


def known_names(names: Any) -> bool:
    """Whether every one of NAMES is an attribute name already checked valid (lower-case, so its
    ``ce_`` header reads back as the same name). False for a name not seen yet: it is not an error."""
    return _VALID_NAMES.issuperset(names)


def _schema_major(version: str) -> int:
    """The major of a semantic version not seen before; cached for the next records."""
    matched = _SEMVER.match(version)
    if matched is None:
        raise PoisonRecord(VALIDATION, "extension 'schemaversion' is not a semantic version")
    if len(matched.group(1)) > MAX_MAJOR_DIGITS:
        raise PoisonRecord(VALIDATION, "extension 'schemaversion' has a major version out of range")
    major = int(matched.group(1))
    if cacheable(_SCHEMA_MAJORS, len(version)):
        _SCHEMA_MAJORS[version] = major
    return major


def _parse_time(value: Any) -> datetime:
    """The ``time`` attribute as an aware datetime (RFC 3339, any case)."""
    if not isinstance(value, str) or not value:
        raise PoisonRecord(VALIDATION, "attribute 'time' is not a timestamp")
    try:
        # upper(): RFC 3339 allows a lowercase "z", which fromisoformat rejects. Cheaper than a test.
        parsed = datetime.fromisoformat(value.upper())
    except ValueError:
        raise PoisonRecord(VALIDATION, "attribute 'time' is not an RFC 3339 timestamp") from None
    if parsed.tzinfo is None:
        raise PoisonRecord(VALIDATION, "attribute 'time' has no UTC offset")
    return parsed


def validate(attributes: dict[str, Any]) -> tuple[int, datetime | None]:
    """Check the attributes as the CloudEvents 1.0 spec and N18 require; return (major, time)."""
    get = attributes.get
    specversion = get("specversion", _MISSING)
    if specversion is _MISSING:
        raise PoisonRecord(VALIDATION, "not a CloudEvent: missing required attribute 'specversion'")
    if specversion != "1.0":
        raise PoisonRecord(VALIDATION, "unsupported specversion (the hub reads CloudEvents 1.0)")
    for name in _REQUIRED:
        value = get(name)
        if not isinstance(value, str) or not value:
            if value is None:
                raise PoisonRecord(VALIDATION, f"not a CloudEvent: missing required attribute '{name}'")
            raise PoisonRecord(VALIDATION, f"attribute '{name}' must be a non-empty string")
    if not _VALID_NAMES.issuperset(attributes):  # one C call when every name was seen before
        _check_names(attributes)
    for name in _STRING_ATTRIBUTES:
        value = get(name, _MISSING)
        # A JSON null is not a string either: a null tenantid or schemaversion is poison too.
        if value is not _MISSING and (not isinstance(value, str) or not value):
            raise PoisonRecord(VALIDATION, f"attribute '{name}' must be a non-empty string")
    if "tenantid" not in attributes:
        raise PoisonRecord(VALIDATION, "missing required extension 'tenantid'")
    version = get("schemaversion", DEFAULT_SCHEMA_VERSION)
    major = _SCHEMA_MAJORS.get(version)
    if major is None:
        major = _schema_major(version)
    event_time = get("time", _MISSING)
    return major, None if event_time is _MISSING else _parse_time(event_time)

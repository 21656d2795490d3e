"""N18, the decoder's edges: warm and cold caches, header cases and sizes, U+0000 wherever it may hide,
null attributes, and a decoder failure that quarantines its record. Pure logic, no broker."""

from __future__ import annotations

import json

import pytest

from hub.cloudevent import attributes as attributes_module
from hub.cloudevent import decode as decode_module
from hub.cloudevent.decode import SERIALIZATION, VALIDATION, Event, Poison, decode_parts

from tests.ingest.test_decode import BASE, LIMIT

# -- the hot path's caches and shortcuts read records as a plain reading would ---------------------

HEADERS = [("ce_specversion", b"1.0"), ("ce_id", b"e-1"), ("ce_source", b"ledger"),
           ("ce_type", b"transaction.posted"), ("ce_tenantid", b"tenant-acme")]
JSON = ("content-type", b"application/json")
STRUCTURED = ("content-type", b"application/cloudevents+json")


def _parts(headers: list, key: bytes | None = None, value: bytes | None = b'{"amount": 7}') -> Event | Poison:
    return decode_parts(headers, key, value, max_bytes=LIMIT)


def _cold_caches(monkeypatch: pytest.MonkeyPatch) -> None:
    for name in ("_HEADER_KINDS", "_SCHEMA_MAJORS"):
        monkeypatch.setattr(attributes_module, name, {})
    monkeypatch.setattr(attributes_module, "_VALID_NAMES", set())
    monkeypatch.setattr(decode_module, "_CONTENT_TYPES", {None: decode_module._CONTENT_TYPES[None]})


_VARIED = [
    (HEADERS + [JSON], b"acc-1", b'{"amount": 7}'),
    ([(name.upper(), raw) for name, raw in HEADERS] + [("Content-Type", b"text/plain")], None, b"seven"),
    (HEADERS + [("ce_schemaversion", b"0.4.1"), ("ce_time", b"2025-01-01t00:00:05z"), ("ce_ext1", b"x")], None,
     b"[1]"),
    (HEADERS + [("ce_schemaversion", b"two")], None, b"{}"),
    (HEADERS + [("ce_Bad-Name", b"x")], None, b"{}"),
    ([("content-type", b"APPLICATION/CLOUDEVENTS+JSON; charset=utf-8")], b"k",
     json.dumps({**BASE, "data": {"a": 1}}).encode()),
    ([("content-type", b"application/cloudevents+avro")], None, b"{}"),
    ([("content-type", b"\xff")], None, b"{}"),
]


def test_warm_caches_read_records_as_cold_ones(monkeypatch: pytest.MonkeyPatch) -> None:
    """Header kinds, content types, attribute names and schema majors are cached: no difference."""
    _cold_caches(monkeypatch)
    cold = [decode_parts(*record, max_bytes=LIMIT) for record in _VARIED]
    assert [decode_parts(*record, max_bytes=LIMIT) for record in _VARIED] == cold
    assert cold[2].schema_major == 0, "a cached major of 0 is still found"
    assert cold[3].message == "extension 'schemaversion' is not a semantic version"
    assert cold[6].message == "unsupported event format application/cloudevents+avro"
    assert (cold[7].error_class, cold[7].message) == (SERIALIZATION, "content-type header is not UTF-8")


def test_caches_stay_within_their_bounds(monkeypatch: pytest.MonkeyPatch) -> None:
    _cold_caches(monkeypatch)
    monkeypatch.setattr(attributes_module, "CACHE_ENTRIES", 8)
    long_name = "ce_" + "x" * attributes_module.CACHE_KEY_CHARS
    for i in range(20):
        extra = [(f"ce_ext{i}", b"v"), (long_name, b"v"), ("content-type", f"text/plain; n={i}".encode())]
        decoded = _parts(HEADERS + extra)
        assert isinstance(decoded, Event) and json.loads(decoded.attributes_json)[f"ext{i}"] == "v"
    assert len(attributes_module._HEADER_KINDS) <= 8 and long_name not in attributes_module._HEADER_KINDS
    assert len(attributes_module._VALID_NAMES) <= 8 and len(decode_module._CONTENT_TYPES) <= 8


def test_last_header_of_a_name_wins_whatever_its_case() -> None:
    """A header without a value is skipped; the attribute keeps the place of its name's first header."""
    for _ in range(2):
        decoded = _parts([*HEADERS[:2], ("ce_subject", b"first"), *HEADERS[2:], ("CE_SUBJECT", b"second"),
                          ("ce_subject", None)])
        assert isinstance(decoded, Event)
        assert list(json.loads(decoded.attributes_json).items())[2] == ("subject", "second")


def test_header_without_a_value_does_not_count_towards_the_size_limit() -> None:
    size = sum(len(name) + len(raw) for name, raw in HEADERS) + len(b"{}")
    assert isinstance(decode_parts(HEADERS + [("x-empty", None)], None, b"{}", max_bytes=size), Event)
    assert isinstance(decode_parts(HEADERS + [("x", b"")], None, b"{}", max_bytes=size), Poison)


def test_ce_header_that_is_not_utf8_only_matters_in_binary_mode() -> None:
    bad = ("ce_subject", b"\xff")
    assert _parts(HEADERS + [bad]).message == "a ce_ header is not UTF-8"
    assert isinstance(_parts(HEADERS + [bad, ("ce_subject", b"fine")]), Event), "replaced by a later header"
    structured = _parts([bad, STRUCTURED], value=json.dumps({**BASE, "data": None}).encode())
    assert isinstance(structured, Event)
    assert _parts([bad], value=b"x" * 100).tenant_raw == ""


@pytest.mark.parametrize("headers, key, value", [
    (HEADERS + [("ce_datacontenttype", b"a\x00b"), JSON], None, b"{}"),  # replaced by content-type
    (HEADERS + [("ce_partitionkey", b"a\x00b")], b"acc-1", b"{}"),  # replaced by the key
    (HEADERS + [("ce_data_base64", b"a\x00b"), ("content-type", b"text/plain")], None, b"\xff\xfe"),  # by the mark
])
def test_nul_in_a_replaced_header_is_not_poison(headers, key, value) -> None:
    assert isinstance(_parts(headers, key, value), Event)


@pytest.mark.parametrize("headers, key", [
    (HEADERS + [("ce_subject", b"a\x00b")], None),
    (HEADERS, b"acc\x00"),
    (HEADERS + [("content-type", b"application/json\x00")], None),
])
def test_nul_in_header_key_or_content_type_is_poison(headers, key) -> None:
    poison = _parts(headers, key, b"{}")
    assert (poison.error_class, poison.message) == (VALIDATION, "an attribute holds a U+0000 character")


def test_data_errors_come_before_a_nul_in_an_attribute() -> None:
    poison = _parts(HEADERS + [("ce_subject", b"a\x00b"), JSON], value=b"{amount: seven")
    assert (poison.error_class, poison.message) == (SERIALIZATION, "data is not valid JSON")
    assert _parts(HEADERS, value=b'{"a": "\\u0000"}').message == "data holds a U+0000 character"
    assert isinstance(_parts(HEADERS, value=b'{"a": "\\\\u0000"}'), Event), "an escaped backslash is no NUL"


def _structured_raw(envelope: dict) -> Event | Poison:
    headers = [("content-type", b"application/cloudevents+json")]
    return decode_parts(headers, None, json.dumps(envelope).encode(), max_bytes=LIMIT)


@pytest.mark.parametrize("name", ["tenantid", "schemaversion", "subject", "datacontenttype", "delegatedscope"])
def test_a_null_string_attribute_is_validation_poison(name) -> None:
    """A JSON null where a string attribute belongs quarantines the record (it used to crash or store NULL)."""
    poison = _structured_raw({**BASE, name: None, "data": {"a": 1}})
    assert isinstance(poison, Poison)
    assert poison.error_class == VALIDATION
    assert name in poison.message


def test_a_major_version_out_of_range_is_validation_poison() -> None:
    poison = _structured_raw({**BASE, "schemaversion": "9" * 5000 + ".0.0"})
    assert isinstance(poison, Poison) and poison.error_class == VALIDATION
    assert "out of range" in poison.message
    assert isinstance(_structured_raw({**BASE, "schemaversion": "999999999.0.0"}), Event)


class _Record:
    """Just enough of a consumed message for decode_record."""

    def headers(self):
        return [("ce_specversion", b"1.0")]

    def key(self):
        return None

    def value(self):
        return b"{}"

    def topic(self):
        return "t.ledger"

    def partition(self):
        return 3

    def offset(self):
        return 41

    def timestamp(self):
        return (1, 1_700_000_000_000)


def test_a_decoder_failure_quarantines_the_record(monkeypatch: pytest.MonkeyPatch) -> None:
    """Whatever goes wrong inside the decoder, the record becomes poison instead of stalling the partition."""
    def broken(*_args, **_kwargs):
        raise RecursionError("deep")

    monkeypatch.setattr(decode_module, "decode_parts", broken)
    poison = decode_module.decode_record(_Record(), max_bytes=LIMIT)
    assert isinstance(poison, Poison)
    assert poison.error_class == SERIALIZATION and "RecursionError" in poison.message
    assert (poison.topic, poison.partition, poison.offset, poison.timestamp_ms) == ("t.ledger", 3, 41, 1_700_000_000_000)

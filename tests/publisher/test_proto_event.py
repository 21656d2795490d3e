"""A gRPC ``Event`` read as the library read it before N63. The message (a ``google.protobuf.Struct``)
read as JSON in one pass gives what ``json_format.MessageToDict`` and the whole-number rule gave,
for any Struct: the same keys in the same order, the same values and types, and the same
ValueError on a non-finite number. ``occurred_at`` gives what ``Timestamp.ToDatetime(tzinfo=UTC)``
gives, its ValueError included. Pure logic, no service."""

from __future__ import annotations

from typing import Any

import orjson
import pytest
from datetime import UTC

from google.protobuf import json_format, struct_pb2, timestamp_pb2
from hypothesis import given, settings
from hypothesis import strategies as st

from hub.grpcapi.publisher import MAX_EXACT_INTEGER, MAX_SECONDS, MIN_SECONDS, struct_json, timestamp_datetime

KEYS = st.text(max_size=8)
NUMBERS = (st.floats() | st.integers(-(2**60), 2**60).map(float)
           | st.sampled_from([2.0**53, -(2.0**53), 2.0**53 + 2, 0.0, -0.0, 1e300, 3.5]))
LEAVES = st.none() | st.booleans() | NUMBERS | st.text(max_size=12) | st.just("unset")
JSON = st.recursive(LEAVES, lambda inner: st.lists(inner, max_size=4) | st.dictionaries(KEYS, inner, max_size=4),
                    max_leaves=20)


def reference(struct: struct_pb2.Struct) -> Any:
    """What the publisher did before N63: the library's reading, then whole-number doubles as integers."""
    def whole(value: Any) -> Any:
        if isinstance(value, float) and value.is_integer() and abs(value) <= MAX_EXACT_INTEGER:
            return int(value)
        if isinstance(value, dict):
            return {key: whole(item) for key, item in value.items()}
        if isinstance(value, list):
            return [whole(item) for item in value]
        return value
    return whole(json_format.MessageToDict(struct))


def fill(value: struct_pb2.Value, item: Any) -> None:
    """Set VALUE to ITEM; the text "unset" leaves the Value without a kind (a client may send that)."""
    if item == "unset":
        return
    if item is None:
        value.null_value = struct_pb2.NULL_VALUE
    elif isinstance(item, bool):
        value.bool_value = item
    elif isinstance(item, float):
        value.number_value = item
    elif isinstance(item, str):
        value.string_value = item
    elif isinstance(item, list):
        value.list_value.SetInParent()
        for element in item:
            fill(value.list_value.values.add(), element)
    else:
        value.struct_value.SetInParent()
        for key, element in item.items():
            fill(value.struct_value.fields[key], element)


def as_struct(message: dict[str, Any]) -> struct_pb2.Struct:
    struct = struct_pb2.Struct()
    for key, item in message.items():
        fill(struct.fields[key], item)
    # Parsed from the wire, as the server sees it (map order is the parser's, not the builder's).
    return struct_pb2.Struct.FromString(struct.SerializeToString())


def outcome(read: Any, struct: struct_pb2.Struct) -> tuple[str, Any]:
    try:
        value = read(struct)
    except ValueError as exc:
        return "error", str(exc)
    # orjson keeps key order and tells 3 from 3.0; nan/inf never get here (they are the error).
    return "value", orjson.dumps(value)


@settings(max_examples=400, deadline=None)
@given(st.dictionaries(KEYS, JSON, max_size=6))
def test_struct_json_reads_any_struct_as_the_library_and_the_whole_number_rule_did(message) -> None:
    struct = as_struct(message)
    assert outcome(struct_json, struct) == outcome(reference, struct)


@pytest.mark.parametrize(("number", "expected"), [(3.0, b"3"), (3.5, b"3.5"), (2.0**53, b"9007199254740992"),
                                                  (2.0**53 + 2, b"9007199254740994.0"), (-0.0, b"0")])
def test_whole_number_doubles_are_integers_while_exact(number: float, expected: bytes) -> None:
    struct = as_struct({"n": number})
    assert orjson.dumps(struct_json(struct)["n"]) == expected


@pytest.mark.parametrize("number", [float("nan"), float("inf"), float("-inf")])
def test_a_non_finite_number_is_the_librarys_value_error(number: float) -> None:
    struct = as_struct({"n": [number]})
    assert outcome(struct_json, struct) == outcome(reference, struct)
    assert outcome(struct_json, struct)[0] == "error"


def read_time(read, timestamp: timestamp_pb2.Timestamp) -> tuple[str, object]:  # noqa: ANN001
    try:
        value = read(timestamp)
    except ValueError as exc:
        return "error", str(exc)
    return "value", (value, value.tzinfo)


@settings(max_examples=500, deadline=None)
@given(st.integers(MIN_SECONDS - 3, MAX_SECONDS + 3) | st.sampled_from([MIN_SECONDS, MAX_SECONDS, 0, -1]),
       st.integers(-3, 10**9 + 3) | st.sampled_from([0, 999, 1000, 999_999_999, -1, 10**9]))
def test_occurred_at_is_the_librarys_datetime(seconds: int, nanos: int) -> None:
    timestamp = timestamp_pb2.Timestamp(seconds=seconds, nanos=nanos)
    assert read_time(timestamp_datetime, timestamp) == read_time(lambda t: t.ToDatetime(tzinfo=UTC), timestamp)

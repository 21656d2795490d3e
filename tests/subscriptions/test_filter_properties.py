"""Payload filters (N53): the compiled predicate agrees with a plain reference evaluator (pure logic).

The reference reads the filter document afresh for every event, written for clarity, not speed;
hypothesis draws filters and events over a small vocabulary so paths and values actually meet.
"""

from __future__ import annotations

from typing import Any

import orjson
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from hub.errors import ValidationFailed
from hub.subscription.filter_check import check_filter
from hub.subscription.filters import MISSING, compile_filter, event_document

# ---- the reference evaluator ------------------------------------------------------------------


def ref_lookup(path: str, attributes: dict[str, Any], data: Any) -> Any:
    if path == "data":
        return data
    if not path.startswith("data."):
        return attributes[path] if path in attributes else MISSING
    node = data
    for segment in path.split(".")[1:]:
        if isinstance(node, dict) and not isinstance(node, bool):
            if segment not in node:
                return MISSING
            node = node[segment]
        elif isinstance(node, list) and segment.isdecimal() and int(segment) < len(node):
            node = node[int(segment)]
        else:
            return MISSING
    return node


def ref_number(value: Any) -> bool:
    return isinstance(value, (int, float)) and not isinstance(value, bool)


def ref_equal(a: Any, b: Any) -> bool:
    if a is MISSING or b is MISSING:
        return False
    if isinstance(a, bool) or isinstance(b, bool):
        return isinstance(a, bool) and isinstance(b, bool) and a == b
    if ref_number(a) or ref_number(b):
        return ref_number(a) and ref_number(b) and float(a) == float(b)
    if isinstance(a, list) and isinstance(b, list):
        return len(a) == len(b) and all(ref_equal(x, y) for x, y in zip(a, b))
    if isinstance(a, dict) and isinstance(b, dict):
        return set(a) == set(b) and all(ref_equal(a[key], b[key]) for key in a)
    if type(a) is not type(b):
        return False
    return a == b


def ref_operator(operator: str, operand: Any, value: Any) -> bool:
    if operator == "$eq":
        return ref_equal(value, operand)
    if operator == "$in":
        return any(ref_equal(value, member) for member in operand)
    if operator == "$exists":
        return (value is not MISSING) == operand
    if operator == "$prefix":
        return isinstance(value, str) and value.startswith(operand)
    if not ref_number(value):
        return False
    return {"$gt": value > operand, "$gte": value >= operand, "$lt": value < operand,
            "$lte": value <= operand}[operator]


def ref_eval(document: dict[str, Any], attributes: dict[str, Any], data: Any) -> bool:
    results = []
    for key, condition in document.items():
        if key == "$and":
            results.append(all(ref_eval(branch, attributes, data) for branch in condition))
        elif key == "$or":
            results.append(any(ref_eval(branch, attributes, data) for branch in condition))
        elif key == "$not":
            results.append(not ref_eval(condition, attributes, data))
        else:
            value = ref_lookup(key, attributes, data)
            if isinstance(condition, dict) and condition and all(k.startswith("$") for k in condition):
                results.append(all(ref_operator(op, operand, value) for op, operand in condition.items()))
            else:
                results.append(ref_equal(value, condition))
    return all(results)


# ---- strategies over a small vocabulary -------------------------------------------------------

KEYS = ["a", "b", "total", "0", "1"]
STRINGS = st.sampled_from(["", "eu", "eu-west", "us", "paid", "EU"])
NUMBERS = st.one_of(st.integers(-3, 3), st.sampled_from([0.5, -1.5, 2.0, 1e20]))
SCALARS = st.one_of(st.none(), st.booleans(), NUMBERS, STRINGS)
VALUES = st.recursive(SCALARS, lambda inner: st.one_of(
    st.lists(inner, max_size=3), st.dictionaries(st.sampled_from(KEYS), inner, max_size=3)), max_leaves=8)
DATA_PATHS = st.lists(st.sampled_from(KEYS), min_size=0, max_size=3).map(lambda parts: ".".join(["data", *parts]))
PATHS = st.one_of(DATA_PATHS, st.sampled_from(["subject", "type", "region", "missing"]))
OPERATORS = st.one_of(
    st.tuples(st.sampled_from(["$gt", "$gte", "$lt", "$lte"]), NUMBERS),
    st.tuples(st.just("$in"), st.lists(SCALARS, min_size=1, max_size=4)),
    st.tuples(st.just("$exists"), st.booleans()),
    st.tuples(st.just("$prefix"), STRINGS.filter(bool)),
    st.tuples(st.just("$eq"), VALUES),
)
CONDITIONS = st.one_of(
    SCALARS, st.lists(SCALARS, max_size=2),
    st.lists(OPERATORS, min_size=1, max_size=3).map(dict),
)
LEAVES = st.dictionaries(PATHS, CONDITIONS, min_size=1, max_size=3)
FILTERS = st.recursive(LEAVES, lambda inner: st.one_of(
    st.lists(inner, min_size=1, max_size=3).map(lambda branches: {"$and": branches}),
    st.lists(inner, min_size=1, max_size=3).map(lambda branches: {"$or": branches}),
    inner.map(lambda branch: {"$not": branch}),
), max_leaves=6)
ATTRIBUTES = st.fixed_dictionaries(
    {"type": st.sampled_from(["order.paid", "order.created"]), "id": st.just("e1")},
    optional={"subject": STRINGS, "region": st.one_of(STRINGS, NUMBERS)})
DATA = st.one_of(st.just(MISSING), VALUES, st.dictionaries(st.sampled_from(KEYS), VALUES, max_size=4))


@settings(max_examples=1500, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(document=FILTERS, attributes=ATTRIBUTES, data=DATA)
def test_compiled_filter_agrees_with_the_reference(document, attributes, data):
    assert check_filter(document) == document
    assert compile_filter(document)(attributes, data) == ref_eval(document, attributes, data)


@settings(max_examples=300, deadline=None)
@given(document=FILTERS, attributes=ATTRIBUTES, data=DATA)
def test_the_stored_json_round_trip_changes_nothing(document, attributes, data):
    """What ingest evaluates is parsed from the event log's JSON text and the stored filter."""
    stored = orjson.loads(orjson.dumps(document))
    data_json = None if data is MISSING else orjson.dumps(data).decode()
    parsed_attributes, parsed_data = event_document(orjson.dumps(attributes).decode(), data_json)
    assert compile_filter(stored)(parsed_attributes, parsed_data) == ref_eval(document, attributes, data)


@pytest.mark.parametrize(("document", "attributes", "data", "expected"), [
    ({"data.total": {"$gte": 100}}, {}, {"total": 100}, True),
    ({"data.total": {"$gte": 100}}, {}, {"total": "100"}, False),
    ({"data.flag": 1}, {}, {"flag": True}, False),
    ({"data.n": 1}, {}, {"n": 1.0}, True),
    ({"data.x": None}, {}, {}, False),
    ({"data.x": {"$exists": False}}, {}, {}, True),
    ({"data.items.1.sku": "b"}, {}, {"items": [{"sku": "a"}, {"sku": "b"}]}, True),
    ({"subject": {"$prefix": "eu-"}}, {"subject": "eu-west"}, MISSING, True),
    ({"$not": {"data.a": 1}}, {}, MISSING, True),
    ({"data.tags": ["x", "y"]}, {}, {"tags": ["y", "x"]}, False),
    ({"data.o": {"$eq": {"k": 1}}}, {}, {"o": {"k": 1}}, True),
])
def test_documented_semantics(document, attributes, data, expected):
    """The rules N53 states, one example each."""
    assert compile_filter(check_filter(document))(attributes, data) is expected


@pytest.mark.parametrize(("document", "locations"), [
    ([], ["filter"]),
    ({}, ["filter"]),
    ({"data.total": {"$gt": "5"}}, ["filter/data.total/$gt"]),
    ({"data.total": {"$gt": True}}, ["filter/data.total/$gt"]),
    ({"data..x": 1, "Subject": 1}, ["filter/data..x", "filter/Subject"]),
    ({"$or": []}, ["filter/$or"]),
    ({"$and": [{"data.a": {"$in": [[1]]}}, {"data.b": {"$regex": "x"}}]},
     ["filter/$and/0/data.a/$in/0", "filter/$and/1/data.b/$regex"]),
    ({"data.a": {"$exists": "yes", "k": 1}}, ["filter/data.a"]),
    ({"$nor": [{"data.a": 1}]}, ["filter/$nor"]),
    ({"data.a/b": {"$prefix": ""}}, ["filter/data.a~1b/$prefix"]),
    ({"data.a": {"$in": []}}, ["filter/data.a/$in"]),
    ({"$not": 5}, ["filter/$not"]),
])
def test_check_filter_names_every_fault(document, locations):
    with pytest.raises(ValidationFailed) as refused:
        check_filter(document)
    assert [error["location"] for error in refused.value.errors] == locations


def test_limits():
    deep: dict[str, Any] = {"data.a": 1}
    for _ in range(8):
        deep = {"$not": deep}
    with pytest.raises(ValidationFailed):
        check_filter(deep)
    with pytest.raises(ValidationFailed):
        check_filter({"$and": [{f"data.k{i}": i} for i in range(65)]})
    with pytest.raises(ValidationFailed):
        check_filter({"data.a": "x" * 9000})

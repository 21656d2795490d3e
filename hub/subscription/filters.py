"""A checked payload filter compiled once into a predicate over (attributes, data) (N53).

Ingest compiles each subscription's filter when it loads its subscription cache and calls the
predicate per candidate event, so an event costs one parse of its attributes and data and a few
closure calls per filtered subscription; no query. The semantics (also the reference evaluator in
tests/subscriptions/test_filter_properties.py): a missing path matches only ``$exists: false``;
equality is JSON equality (``1 == 1.0``; ``true`` is not ``1``; arrays in order, objects by key);
comparisons hold only for numbers, ``$prefix`` only for strings; the keys of an object all hold.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import orjson

from hub.subscription.filter_check import COMPARISONS, DATA, is_number

#: The value of a path the event does not have.
MISSING: Any = type("Missing", (), {"__repr__": lambda self: "MISSING"})()

Predicate = Callable[[dict[str, Any], Any], bool]
Test = Callable[[Any], bool]
Getter = Callable[[dict[str, Any], Any], Any]


def event_document(attributes_json: str, data_json: str | None) -> tuple[dict[str, Any], Any]:
    """The (attributes, data) a predicate reads from a stored event's JSON texts (no data: MISSING)."""
    return orjson.loads(attributes_json), MISSING if data_json is None else orjson.loads(data_json)


def json_equal(left: Any, right: Any) -> bool:
    """JSON equality: numbers by value, booleans only equal booleans, arrays in order, objects by key."""
    if type(left) is bool or type(right) is bool:
        return left is right
    if is_number(left) or is_number(right):
        return is_number(left) and is_number(right) and left == right
    if isinstance(left, list):
        return (isinstance(right, list) and len(left) == len(right)
                and all(json_equal(a, b) for a, b in zip(left, right)))
    if isinstance(left, dict):
        return (isinstance(right, dict) and left.keys() == right.keys()
                and all(json_equal(value, right[key]) for key, value in left.items()))
    return left == right and left is not MISSING


def _walk(steps: tuple[tuple[str, int | None], ...]) -> Getter:
    def get(_: dict[str, Any], node: Any) -> Any:
        for key, index in steps:
            if type(node) is dict:
                node = node.get(key, MISSING)
            elif type(node) is list and index is not None and index < len(node):
                node = node[index]
            else:
                return MISSING
        return node
    return get


def getter(path: str) -> Getter:
    """How to read ``path``: the data, a dotted walk into it (decimal segments index arrays), or an attribute."""
    if path == DATA:
        return lambda _, data: data
    if path.startswith(DATA + "."):
        segments = path.split(".")[1:]
        return _walk(tuple((segment, int(segment) if segment.isdecimal() else None) for segment in segments))
    return lambda attributes, _: attributes.get(path, MISSING)


def _equals(literal: Any) -> Test:
    if literal is None:
        return lambda value: value is None
    if type(literal) is bool:
        return lambda value: value is literal
    if type(literal) is str:
        return lambda value: value == literal  # only a str equals a str
    if is_number(literal):
        return lambda value: value == literal and type(value) is not bool
    return lambda value: json_equal(value, literal)


def _member_of(members: list[Any]) -> Test:
    strings = frozenset(m for m in members if type(m) is str)
    numbers = frozenset(m for m in members if is_number(m))
    booleans = frozenset(m for m in members if type(m) is bool)
    has_null = any(m is None for m in members)

    def test(value: Any) -> bool:
        kind = type(value)
        if kind is str:
            return value in strings
        if kind is bool:
            return value in booleans
        if kind is int or kind is float:
            return value in numbers
        return has_null and value is None
    return test


def _compare(operator: str, bound: float) -> Test:
    if operator == "$gt":
        return lambda value: (type(value) is int or type(value) is float) and value > bound
    if operator == "$gte":
        return lambda value: (type(value) is int or type(value) is float) and value >= bound
    if operator == "$lt":
        return lambda value: (type(value) is int or type(value) is float) and value < bound
    return lambda value: (type(value) is int or type(value) is float) and value <= bound


def _operator(operator: str, operand: Any) -> Test:
    if operator in COMPARISONS:
        return _compare(operator, operand)
    if operator == "$in":
        return _member_of(operand)
    if operator == "$exists":
        return (lambda value: value is not MISSING) if operand else (lambda value: value is MISSING)
    if operator == "$prefix":
        return lambda value: type(value) is str and value.startswith(operand)
    return _equals(operand)  # $eq


def _condition(path: str, condition: Any) -> Predicate:
    get = getter(path)
    if isinstance(condition, dict) and condition and all(key.startswith("$") for key in condition):
        tests = [_operator(operator, operand) for operator, operand in condition.items()]
    else:
        tests = [_equals(condition)]
    if len(tests) == 1:
        test = tests[0]
        return lambda attributes, data: test(get(attributes, data))

    def check(attributes: dict[str, Any], data: Any) -> bool:
        value = get(attributes, data)
        return all(test(value) for test in tests)
    return check


def _all(parts: list[Predicate]) -> Predicate:
    if len(parts) == 1:
        return parts[0]
    return lambda attributes, data: all(part(attributes, data) for part in parts)


def compile_filter(document: dict[str, Any]) -> Predicate:
    """The predicate of a filter that ``check_filter`` accepted."""
    parts: list[Predicate] = []
    for key, value in document.items():
        if key == "$and":
            parts.append(_all([compile_filter(branch) for branch in value]))
        elif key == "$or":
            branches = [compile_filter(branch) for branch in value]
            parts.append(lambda attributes, data, branches=branches: any(b(attributes, data) for b in branches))
        elif key == "$not":
            inner = compile_filter(value)
            parts.append(lambda attributes, data, inner=inner: not inner(attributes, data))
        else:
            parts.append(_condition(key, value))
    return _all(parts)

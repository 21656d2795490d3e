"""Checks of a subscription's payload filter (docs/contract-notes.md N53): every fault, located.

A filter is a JSON object whose keys are paths (``data.order.total``, or an attribute name such as
``subject``) or the logical operators ``$and``, ``$or`` and ``$not``; a path holds a literal
(equality) or an object of operators. The checks collect every fault with its location (a JSON
pointer below ``filter``, as ``event_types/0`` names an array entry), so a caller fixes them in
one go; ``ValidationFailed`` carries them all.
"""

from __future__ import annotations

import re
from typing import Any

import orjson

from hub.errors import ValidationFailed

MAX_FILTER_BYTES = 8192
MAX_DEPTH = 8
MAX_CONDITIONS = 64
MAX_IN_VALUES = 256
MAX_PATH_SEGMENTS = 16
MAX_ERRORS = 20
LOGICAL = ("$and", "$or", "$not")
COMPARISONS = ("$gt", "$gte", "$lt", "$lte")
OPERATORS = ("$eq", "$in", "$exists", "$prefix", *COMPARISONS)
DATA = "data"
# CloudEvents attribute names: lower-case letters and digits.
ATTRIBUTE_NAME = re.compile(r"[a-z0-9]{1,64}")


def is_number(value: Any) -> bool:
    """A JSON number (booleans are not numbers in JSON)."""
    return type(value) is int or type(value) is float


def is_scalar(value: Any) -> bool:
    return value is None or type(value) in (str, bool, int, float)


def pointer(location: str, *parts: str) -> str:
    """``location`` extended by ``parts``: ``filter/$and/0/data.total`` (RFC 6901 escapes in each part)."""
    return "/".join([location, *(part.replace("~", "~0").replace("/", "~1") for part in parts)])


def path_fault(path: str) -> str | None:
    """Why ``path`` cannot address a value, or None: ``data`` / ``data.<segments>`` or one attribute name."""
    if path == DATA:
        return None
    if path.startswith(DATA + "."):
        segments = path.split(".")[1:]
        if len(segments) > MAX_PATH_SEGMENTS:
            return f"a data path has at most {MAX_PATH_SEGMENTS} segments below data"
        if any(not segment for segment in segments):
            return "a data path has no empty segment (data.a.b)"
        return None
    if ATTRIBUTE_NAME.fullmatch(path):
        return None
    return "a path is data, data.<dotted segments>, or a CloudEvent attribute name (lower-case letters and digits)"


class _Checker:
    """One walk over a filter document, collecting located faults and counting conditions."""

    def __init__(self) -> None:
        self.errors: list[dict[str, str]] = []
        self.conditions = 0

    def fault(self, location: str, message: str) -> None:
        if len(self.errors) < MAX_ERRORS:
            self.errors.append({"location": location, "message": message})

    def filter(self, node: Any, location: str, depth: int) -> None:
        if not isinstance(node, dict) or not node:
            self.fault(location, "a filter is a non-empty JSON object of paths and $and, $or, $not")
            return
        if depth > MAX_DEPTH:
            self.fault(location, f"filters nest at most {MAX_DEPTH} deep")
            return
        for key, value in node.items():
            where = pointer(location, key)
            if key in ("$and", "$or"):
                self.branches(value, where, depth)
            elif key == "$not":
                self.filter(value, where, depth + 1)
            elif key.startswith("$"):
                self.fault(where, f"{key} is not a filter operator here; use $and, $or, $not or a path")
            else:
                fault = path_fault(key)
                if fault:
                    self.fault(where, fault)
                self.condition(value, where)

    def branches(self, value: Any, location: str, depth: int) -> None:
        if not isinstance(value, list) or not value:
            self.fault(location, "$and and $or take a non-empty array of filters")
            return
        for index, branch in enumerate(value):
            self.filter(branch, pointer(location, str(index)), depth + 1)

    def condition(self, value: Any, location: str) -> None:
        self.conditions += 1
        if not isinstance(value, dict) or not any(key.startswith("$") for key in value):
            return  # a literal: JSON equality
        if not all(key.startswith("$") for key in value):
            self.fault(location, "an operator object holds only operators ($eq, $in, …); "
                                 "to match an object literally, use {\"$eq\": {…}}")
            return
        for operator, operand in value.items():
            self.operator(operator, operand, pointer(location, operator))

    def operator(self, operator: str, operand: Any, location: str) -> None:
        if operator in COMPARISONS and not is_number(operand):
            self.fault(location, f"{operator} takes a number")
        elif operator == "$prefix" and (not isinstance(operand, str) or not operand):
            self.fault(location, "$prefix takes a non-empty string")
        elif operator == "$exists" and not isinstance(operand, bool):
            self.fault(location, "$exists takes true or false")
        elif operator == "$in":
            self.members(operand, location)
        elif operator not in OPERATORS:
            self.fault(location, f"unknown operator {operator}; one of {', '.join(OPERATORS)}")

    def members(self, operand: Any, location: str) -> None:
        if not isinstance(operand, list) or not operand or len(operand) > MAX_IN_VALUES:
            self.fault(location, f"$in takes an array of 1 to {MAX_IN_VALUES} values")
            return
        for index, member in enumerate(operand):
            if not is_scalar(member):
                self.fault(pointer(location, str(index)), "$in values are strings, numbers, booleans or null")


def check_filter(document: Any, location: str = "filter") -> dict[str, Any] | None:
    """The filter to store (None when absent or null); a ValidationFailed naming every fault otherwise."""
    if document is None:
        return None
    if len(orjson.dumps(document)) > MAX_FILTER_BYTES:
        raise ValidationFailed("the filter is too large", errors=[
            {"location": location, "message": f"a filter is at most {MAX_FILTER_BYTES} bytes of JSON"}])
    checker = _Checker()
    checker.filter(document, location, 1)
    if checker.conditions > MAX_CONDITIONS:
        checker.fault(location, f"a filter holds at most {MAX_CONDITIONS} path conditions")
    if checker.errors:
        raise ValidationFailed(checker.errors[0]["message"], errors=checker.errors)
    return document

"""The broker's input grammar (docs/contract-notes.md N34): topics, types, data, limits and instants.

Every check returns the violations it found as ``{location, message}`` entries instead of
raising, so one request with several bad fields is answered with all of them in one 422.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

import orjson

from hub.cloudevent.decode import has_nul

SEPARATOR = ":"
MAX_DEPTH = 8
MAX_SEGMENT_CHARS = 64
MAX_TOPIC_CHARS = 255
MAX_TYPE_CHARS = 128
MAX_DATA_BYTES = 65_536
DEFAULT_LIMIT, MAX_LIMIT = 100, 1000
MAX_INSTANT = 2**53  # milliseconds: beyond any real instant, and exact in every JSON reader

_SEGMENT = re.compile(r"^[A-Za-z0-9_.-]+$")
_TYPE = re.compile(r"^[A-Za-z0-9](?:[A-Za-z0-9_.-]*[A-Za-z0-9])?$")

Violation = dict[str, str]


@dataclass(frozen=True, slots=True)
class Topic:
    """A valid topic: its text and its Main Topic (the first segment)."""

    text: str
    main: str

    @property
    def is_main(self) -> bool:
        return self.text == self.main


def topic_violations(text: str, location: str = "path/topic") -> list[Violation]:
    """What is wrong with TEXT as a topic (empty when it is a valid one)."""
    if not text:
        return [{"location": location, "message": "a topic is required"}]
    if len(text) > MAX_TOPIC_CHARS:
        return [{"location": location, "message": f"a topic is at most {MAX_TOPIC_CHARS} characters"}]
    segments = text.split(SEPARATOR)
    if len(segments) > MAX_DEPTH:
        return [{"location": location, "message": f"a topic has at most {MAX_DEPTH} segments"}]
    for segment in segments:
        if not segment:
            return [{"location": location, "message": "a topic segment is never empty"}]
        if len(segment) > MAX_SEGMENT_CHARS:
            return [{"location": location, "message": f"a topic segment is at most {MAX_SEGMENT_CHARS} characters"}]
        if not _SEGMENT.match(segment):
            return [{"location": location, "message": "a topic segment holds only A-Z, a-z, 0-9, '_', '.' and '-'"}]
    return []


def parse_topic(text: str) -> Topic | None:
    """TEXT as a :class:`Topic`, or None when it is not one."""
    if topic_violations(text):
        return None
    return Topic(text, text.split(SEPARATOR, 1)[0])


def type_violations(value: Any, location: str) -> list[Violation]:
    """What is wrong with VALUE as an event type."""
    if not isinstance(value, str) or not value:
        return [{"location": location, "message": "a type is a non-empty string"}]
    if len(value) > MAX_TYPE_CHARS:
        return [{"location": location, "message": f"a type is at most {MAX_TYPE_CHARS} characters"}]
    if not _TYPE.match(value):
        return [{"location": location, "message": "a type holds only A-Z, a-z, 0-9, '_', '.' and '-', "
                                                  "and starts and ends with a letter or digit"}]
    return []


def data_violations(value: Any, location: str = "data") -> list[Violation]:
    """What is wrong with VALUE as event data: any JSON value up to MAX_DATA_BYTES as compact JSON."""
    try:
        size = len(orjson.dumps(value))
    except (TypeError, orjson.JSONEncodeError):
        return [{"location": location, "message": "data must be a JSON value"}]
    if size > MAX_DATA_BYTES:
        return [{"location": location, "message": f"data is at most {MAX_DATA_BYTES} bytes as compact JSON"}]
    if has_nul(value):
        return [{"location": location, "message": "data may not hold a U+0000 character"}]
    return []


def integer_param(raw: str | None, name: str, *, low: int, high: int,
                  errors: list[Violation]) -> int | None:
    """A query integer in [LOW, HIGH], or None when absent; a violation is appended to ERRORS."""
    if raw is None:
        return None
    try:
        value = int(raw)
    except ValueError:
        value = None
    if value is None or not low <= value <= high:
        errors.append({"location": f"query/{name}", "message": f"{name} is an integer from {low} to {high}"})
        return None
    return value


def instant_param(raw: str | None, name: str, errors: list[Violation]) -> int | None:
    """A ``since``/``until`` query value: milliseconds since the epoch."""
    return integer_param(raw, name, low=0, high=MAX_INSTANT, errors=errors)


def bound_violations(value: Any, location: str) -> list[Violation]:
    """What is wrong with VALUE as a retention bound: null, or an integer greater than 0."""
    if value is None:
        return []
    if isinstance(value, bool) or not isinstance(value, int) or not 0 < value <= 2**62:
        return [{"location": location, "message": "a bound is null or an integer greater than 0"}]
    return []

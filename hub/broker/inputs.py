"""Request inputs of the broker routes, checked against the grammar: every violation in one 422."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from hub.bodies import parse_json
from hub.broker.errors import InvalidBrokerInput
from hub.broker.grammar import (
    DEFAULT_LIMIT, MAX_LIMIT, Topic, Violation, bound_violations, data_violations, instant_param, integer_param,
    parse_topic, topic_violations, type_violations,
)
from hub.broker.history import Filters

MISSING: Any = object()


@dataclass(frozen=True, slots=True)
class PublishInput:
    event_type: str
    data: Any


@dataclass(frozen=True, slots=True)
class ConfigInput:
    max_events: int | None
    ttl_seconds: int | None


def _raise_if(errors: list[Violation]) -> None:
    if errors:
        raise InvalidBrokerInput(errors=errors)


def topic_of(text: str, *, main_only: bool = False, location: str = "path/topic") -> Topic:
    """The path's topic; 422 when it breaks the grammar (or is not a Main Topic when MAIN_ONLY)."""
    errors = topic_violations(text, location)
    _raise_if(errors)
    topic = parse_topic(text)
    assert topic is not None
    if main_only and not topic.is_main:
        _raise_if([{"location": "path/topic", "message": "a config is set on a Main Topic only (no ':')"}])
    return topic


def _object_body(raw: bytes, content_type: str | None) -> dict[str, Any]:
    if not raw.strip():
        _raise_if([{"location": "body", "message": "a JSON object body is required"}])
    body = parse_json(raw, content_type)  # 400 bad_request when it is not JSON
    if not isinstance(body, dict):
        _raise_if([{"location": "body", "message": "the body is a JSON object"}])
    return body


def publish_input(raw: bytes, content_type: str | None) -> PublishInput:
    """``{"type": ..., "data": ...}``: a type by the grammar, data any JSON value (absent: null)."""
    body = _object_body(raw, content_type)
    event_type = body.get("type", MISSING)
    data = body.get("data")
    errors = type_violations(None if event_type is MISSING else event_type, "type") + data_violations(data)
    _raise_if(errors)
    return PublishInput(event_type, data)


def config_input(raw: bytes, content_type: str | None) -> ConfigInput:
    """``{"max_events": ..., "ttl_seconds": ...}``: each null or > 0; an omitted bound is null."""
    body = _object_body(raw, content_type)
    max_events, ttl_seconds = body.get("max_events"), body.get("ttl_seconds")
    _raise_if(bound_violations(max_events, "max_events") + bound_violations(ttl_seconds, "ttl_seconds"))
    return ConfigInput(max_events, ttl_seconds)


def read_params(query: Mapping[str, str]) -> tuple[Filters, int]:
    """History's ``type``, ``until`` and ``limit`` (1-1000, default 100)."""
    errors: list[Violation] = []
    event_type = query.get("type")
    if event_type is not None:
        errors += type_violations(event_type, "query/type")
    until = instant_param(query.get("until"), "until", errors)
    limit = integer_param(query.get("limit"), "limit", low=1, high=MAX_LIMIT, errors=errors)
    _raise_if(errors)
    return Filters(event_type=event_type, until=until), limit or DEFAULT_LIMIT


def purge_params(query: Mapping[str, str]) -> Filters:
    """Purge's ``type``, ``since`` (inclusive) and ``until`` (exclusive)."""
    errors: list[Violation] = []
    event_type = query.get("type")
    if event_type is not None:
        errors += type_violations(event_type, "query/type")
    since = instant_param(query.get("since"), "since", errors)
    until = instant_param(query.get("until"), "until", errors)
    _raise_if(errors)
    return Filters(event_type=event_type, since=since, until=until)

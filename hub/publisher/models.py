"""The seed's publish event, read from either protocol, and the result of publishing one.

Both surfaces hand the service a :class:`PublishEvent` (or an :class:`InvalidEvent` naming what is
wrong), so the rules of an event (seed 000, "Publisher REST API" and "Publisher gRPC API") are
written once: ``event_type`` a non-empty string, ``message`` a JSON object, ``occurred_at`` an
RFC 3339 timestamp with an offset, ``resource.resource_id`` optional.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

MAX_EVENT_TYPE_CHARS = 255
MAX_RESOURCE_ID_CHARS = 1024


@dataclass(frozen=True, slots=True)
class PublishEvent:
    """One valid event as the publisher sent it; ``echo`` is what the result returns."""

    event_type: str
    message: dict[str, Any]
    occurred_at: datetime
    resource_id: str | None
    echo: Any = None


@dataclass(frozen=True, slots=True)
class InvalidEvent:
    """An event that breaks the seed's rules; ``reason`` names the field and the rule."""

    reason: str
    echo: Any = None


@dataclass(frozen=True, slots=True)
class PublishOutcome:
    """The seed's ``PublishingResult`` of one event, before it is written in a protocol's shape."""

    success: bool
    failure_reason: str = ""


def check_event_type(value: Any) -> str:
    """The event type, or ValueError naming the rule."""
    if not isinstance(value, str) or not value.strip():
        raise ValueError("event_type must be a non-empty string")
    if len(value) > MAX_EVENT_TYPE_CHARS:
        raise ValueError(f"event_type must be at most {MAX_EVENT_TYPE_CHARS} characters")
    return value


def check_resource_id(value: Any) -> str | None:
    """The resource id (None when empty), or ValueError naming the rule."""
    if value is None or value == "":
        return None
    if not isinstance(value, str):
        raise ValueError("resource.resource_id must be a string")
    if len(value) > MAX_RESOURCE_ID_CHARS:
        raise ValueError(f"resource.resource_id must be at most {MAX_RESOURCE_ID_CHARS} characters")
    return value


def parse_timestamp(value: Any) -> datetime:
    """An RFC 3339 ``occurred_at`` as an aware UTC datetime, or ValueError."""
    if not isinstance(value, str) or not value:
        raise ValueError("occurred_at must be an RFC 3339 timestamp")
    try:
        parsed = datetime.fromisoformat(value.upper())  # RFC 3339 allows a lowercase "z"
    except ValueError:
        raise ValueError("occurred_at must be an RFC 3339 timestamp") from None
    if parsed.tzinfo is None:
        raise ValueError("occurred_at must carry a UTC offset")
    return parsed.astimezone(UTC)


def _resource_id(raw: dict[str, Any]) -> str | None:
    resource = raw.get("resource")
    if resource is None:
        return None
    if not isinstance(resource, dict):
        raise ValueError("resource must be an object")
    return check_resource_id(resource.get("resource_id"))


def event_from_json(raw: Any) -> PublishEvent | InvalidEvent:
    """One event of a REST body (a JSON value), checked against the seed's rules."""
    if not isinstance(raw, dict):
        return InvalidEvent("the event must be a JSON object", raw)
    try:
        event_type = check_event_type(raw.get("event_type"))
        message = raw.get("message")
        if not isinstance(message, dict):
            raise ValueError("message must be a JSON object")
        occurred_at = parse_timestamp(raw.get("occurred_at"))
        resource_id = _resource_id(raw)
    except ValueError as exc:
        return InvalidEvent(str(exc), raw)
    return PublishEvent(event_type, message, occurred_at, resource_id, raw)

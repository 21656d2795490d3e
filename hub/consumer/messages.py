"""A stored event as a consumer-queue message, and back (N38): one codec for relay, streams and triage.

The body is the seed's consumer ``Event`` as JSON (``event_type``, ``principal_identity``,
``occurred_at``, ``published_at``, ``message``); the resource id and the event-log position ride
as headers, since the consumer ``Event`` has no field for them but triage shows the resource id.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

import orjson

# A timestamp as rfc3339() writes it: UTC, "Z", whole seconds or six digits of them (the publisher stores its
# attributes so). Such a text is passed through as it is; any other is parsed and written again.
CANONICAL_UTC = re.compile(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.(?!000000)\d{6})?Z")
RESOURCE_HEADER = "hub-resource-id"
SEQ_HEADER = "hub-event-seq"


@dataclass(frozen=True, slots=True)
class ConsumerEvent:
    event_type: str
    principal_identity: str
    occurred_at: datetime
    published_at: datetime
    message: dict[str, Any]
    resource_id: str | None = None

    def as_json(self) -> dict[str, Any]:
        """The SSE ``event`` data: the seed's field names, RFC 3339 UTC timestamps."""
        return {"event_type": self.event_type, "principal_identity": self.principal_identity,
                "occurred_at": rfc3339(self.occurred_at), "published_at": rfc3339(self.published_at),
                "message": self.message}


def rfc3339(moment: datetime) -> str:
    text = moment.astimezone(UTC).isoformat().replace("+00:00", "Z")
    return text


def _moment(value: Any, fallback: datetime) -> datetime:
    if isinstance(value, datetime):
        return value if value.tzinfo else value.replace(tzinfo=UTC)
    if isinstance(value, str):
        try:
            parsed = datetime.fromisoformat(value.replace("Z", "+00:00"))
        except ValueError:
            return fallback
        return parsed if parsed.tzinfo else parsed.replace(tzinfo=UTC)
    return fallback


def from_log_row(event_type: str, source: str, attributes: dict | None, data: Any,
                 event_time: datetime | None, received_at: datetime) -> ConsumerEvent:
    """The consumer event of an event-log row (publisher extensions first, CloudEvent attributes after)."""
    attributes = attributes or {}
    resource = attributes.get("resourceid")
    return ConsumerEvent(
        event_type=event_type,
        principal_identity=str(attributes.get("principalidentity") or source),
        occurred_at=_moment(attributes.get("occurredat"), event_time or received_at),
        published_at=_moment(attributes.get("publishedat"), received_at),
        message=data if isinstance(data, dict) else {"data": data},
        resource_id=resource if isinstance(resource, str) and resource else None)


def _text(value: Any, fallback: datetime) -> str:
    """VALUE as rfc3339() would write the moment it names (FALLBACK when it names none)."""
    if isinstance(value, str) and CANONICAL_UTC.fullmatch(value):
        return value
    return rfc3339(_moment(value, fallback))


def log_row_body(event_type: str, source: str, attributes: dict | None, data: Any,
                 event_time: datetime | None, received_at: datetime) -> bytes:
    """``encode(from_log_row(...))`` without the round trip of the stored timestamp texts through
    datetimes: the relay's body of each event (the same bytes)."""
    attributes = attributes or {}
    return orjson.dumps({
        "event_type": event_type, "principal_identity": str(attributes.get("principalidentity") or source),
        "occurred_at": _text(attributes.get("occurredat"), event_time or received_at),
        "published_at": _text(attributes.get("publishedat"), received_at),
        "message": data if isinstance(data, dict) else {"data": data}})


def encode(event: ConsumerEvent) -> bytes:
    return orjson.dumps(event.as_json())


def decode(body: bytes, headers: dict | None) -> ConsumerEvent:
    """The event of a queue message; ValueError when the body is not one of ours."""
    document = orjson.loads(body)
    if not isinstance(document, dict) or not isinstance(document.get("event_type"), str):
        raise ValueError("not a consumer event")
    epoch = datetime.fromtimestamp(0, UTC)
    resource = (headers or {}).get(RESOURCE_HEADER)
    message = document.get("message")
    return ConsumerEvent(
        event_type=document["event_type"], principal_identity=str(document.get("principal_identity") or ""),
        occurred_at=_moment(document.get("occurred_at"), epoch), published_at=_moment(document.get("published_at"), epoch),
        message=message if isinstance(message, dict) else {},
        resource_id=resource.decode() if isinstance(resource, bytes) else resource)

"""Read side of the dead-letter observations (listDLQObservations, R-listDLQObservations-01..10)."""

from __future__ import annotations

import re
import uuid
from dataclasses import dataclass
from enum import Enum

from sqlmodel import Session, col, select

from hub.dlq.models import DLQObservation
from hub.errors import BadRequest, InvalidCursor
from hub.ids import parse_uuid

DEFAULT_LIMIT = 50
MAX_LIMIT = 200
UNKNOWN_TOPIC = "unknown"

# Kafka's legal topic names: 1..249 of [a-zA-Z0-9._-], and never "." or "..".
_TOPIC = re.compile(r"^[a-zA-Z0-9._-]{1,249}$")


class DLQErrorClass(str, Enum):
    """The transport error classes of the contract's ``DLQErrorClass``."""

    SERIALIZATION = "serialization"
    VALIDATION = "validation"
    AUTH = "auth"
    TOPIC_NOT_FOUND = "topic_not_found"
    BROKER_UNAVAILABLE = "broker_unavailable"
    NETWORK_TIMEOUT = "network_timeout"
    BROKER_OVERLOADED = "broker_overloaded"
    CONTEXT_CANCELED = "context_canceled"
    UNKNOWN = "unknown"


ERROR_CLASSES = frozenset(member.value for member in DLQErrorClass)


class InvalidSourceTopic(BadRequest):
    code, default_detail = "invalid_source_topic", "source_topic is not a topic name (or `unknown`)"


class InvalidErrorClass(BadRequest):
    code, default_detail = "invalid_error_class", "error_class is not a known transport error class"


@dataclass(frozen=True)
class DLQPage:
    observations: list[DLQObservation]
    next_cursor: str


def is_topic_name(value: str) -> bool:
    return bool(_TOPIC.match(value)) and value not in (".", "..")


def parse_filters(*, source_topic: str | None, error_class: str | None,
                  after: str | None) -> tuple[str | None, str | None, uuid.UUID | None]:
    """Validate the query filters as the hub (docs/contract-notes.md N1); raises the contract's 400s."""
    if source_topic is not None and not is_topic_name(source_topic):
        raise InvalidSourceTopic()
    if error_class is not None and error_class not in ERROR_CLASSES:
        raise InvalidErrorClass()
    cursor = None
    if after is not None:
        cursor = parse_uuid(after)
        # Every observation id is a UUIDv7; anything else cannot be a cursor the hub issued.
        if cursor is None or cursor.version != 7:
            raise InvalidCursor("after is not the id of an observation")
    return source_topic, error_class, cursor


def parse_limit(raw: str | None) -> int:
    """The page size: default 50, at most 200; a non-numeric or non-positive value means the default."""
    try:
        value = int(raw) if raw is not None else DEFAULT_LIMIT
    except ValueError:
        return DEFAULT_LIMIT
    return DEFAULT_LIMIT if value <= 0 else min(value, MAX_LIMIT)


def list_observations(*, session: Session, source_topic: str | None, error_class: str | None,
                      after: uuid.UUID | None, limit: int) -> DLQPage:
    """Newest first by UUIDv7 id, strictly older than ``after``; cross-tenant by design (R-listDLQObservations-02)."""
    query = select(DLQObservation)
    if source_topic is not None:
        query = query.where(DLQObservation.source_topic == source_topic)
    if error_class is not None:
        query = query.where(DLQObservation.error_class == error_class)
    if after is not None:
        query = query.where(col(DLQObservation.id) < after)
    rows = list(session.exec(query.order_by(col(DLQObservation.id).desc()).limit(limit + 1)))
    page, more = rows[:limit], len(rows) > limit
    return DLQPage(observations=page, next_cursor=str(page[-1].id) if more else "")

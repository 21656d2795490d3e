"""The delivery log's query: filters read as plain strings and checked here (N1), the opaque cursor,
and the job-id bounds a time range becomes (a job's id is a UUIDv7 minted when it was created)."""

from __future__ import annotations

import base64
import binascii
import uuid
from dataclasses import dataclass
from datetime import datetime

from pydantic import TypeAdapter, ValidationError

from hub.dataplane.models import JobState
from hub.deliverylog.errors import CURSOR_NOT_ISSUED
from hub.errors import InvalidCursor, invalid
from hub.sinks.vocabulary import Outcome

DEFAULT_LIMIT = 50
MAX_LIMIT = 200
CURSOR_VERSION = b"\x01"
_MOMENT = TypeAdapter(datetime)

# A job's outcome: its state once finished, ``failed`` while a retry is scheduled, none while untried (N46).
OUTCOME_OF_STATE = {JobState.delivered: Outcome.delivered, JobState.retrying: Outcome.failed,
                    JobState.dead_lettered: Outcome.dead_lettered, JobState.disabled: Outcome.disabled}
STATES_OF_OUTCOME = {outcome.value: state.value for state, outcome in OUTCOME_OF_STATE.items()}
JOB_STATES = tuple(state.value for state in JobState)
JOB_OUTCOMES = tuple(STATES_OF_OUTCOME)


@dataclass(frozen=True)
class LogFilters:
    states: tuple[str, ...] | None = None  # None: any state
    event_type: str | None = None
    event_id: str | None = None
    since: datetime | None = None
    until: datetime | None = None
    after: uuid.UUID | None = None
    limit: int = DEFAULT_LIMIT


def encode_cursor(job_id: uuid.UUID) -> str:
    return base64.urlsafe_b64encode(CURSOR_VERSION + job_id.bytes).decode("ascii").rstrip("=")


def decode_cursor(raw: str) -> uuid.UUID:
    try:
        data = base64.urlsafe_b64decode(raw + "=" * (-len(raw) % 4))
    except (binascii.Error, ValueError):
        raise InvalidCursor(CURSOR_NOT_ISSUED) from None
    if len(data) != 17 or data[:1] != CURSOR_VERSION:
        raise InvalidCursor(CURSOR_NOT_ISSUED)
    return uuid.UUID(bytes=data[1:])


def id_bound(moment: datetime) -> uuid.UUID:
    """The smallest UUIDv7 minted at ``moment``'s millisecond: ids ``>=`` it were minted then or later."""
    millis = max(int(moment.timestamp() * 1000), 0)
    return uuid.UUID(bytes=millis.to_bytes(6, "big") + bytes(10))


def parse_moment(raw: str | None, location: str) -> datetime | None:
    if raw is None:
        return None
    try:
        moment = _MOMENT.validate_python(raw)
    except ValidationError:
        raise invalid(location, "not an RFC 3339 date-time") from None
    if moment.tzinfo is None:
        raise invalid(location, "an RFC 3339 date-time needs its offset (Z or ±hh:mm)")
    return moment


def _listed(raw: str | None, allowed: tuple[str, ...], location: str) -> set[str] | None:
    if raw is None:
        return None
    values = {part.strip() for part in raw.split(",")}
    unknown = sorted(values - set(allowed))
    if unknown:
        raise invalid(location, f"unknown value(s) {unknown}; one or more of {list(allowed)}, comma-separated")
    return values


def _states(state: str | None, outcome: str | None) -> tuple[str, ...] | None:
    """``state`` and ``outcome`` together: the jobs both admit (N46)."""
    states = _listed(state, JOB_STATES, "state")
    outcomes = _listed(outcome, JOB_OUTCOMES, "outcome")
    if outcomes is not None:
        by_outcome = {STATES_OF_OUTCOME[value] for value in outcomes}
        states = by_outcome if states is None else states & by_outcome
    return None if states is None else tuple(sorted(states))


def page_limit(raw: str | None) -> int:
    """The page size of a keyset list (N4): default 50, clamped to 200, a non-positive value means the
    default; not an integer is 422 ``validation_error`` at ``limit``."""
    if raw is None:
        return DEFAULT_LIMIT
    try:
        value = int(raw)
    except ValueError:
        raise invalid("limit", "not an integer") from None
    return DEFAULT_LIMIT if value <= 0 else min(value, MAX_LIMIT)


def _text(raw: str | None, location: str) -> str | None:
    if raw is not None and not raw.strip():
        raise invalid(location, "empty")
    return raw


def log_filters(query: dict[str, str]) -> LogFilters:
    """The checked filters of ``GET …/deliveries``; 422 validation_error names a bad one, 400 a bad cursor."""
    since, until = parse_moment(query.get("since"), "since"), parse_moment(query.get("until"), "until")
    if since is not None and until is not None and until <= since:
        raise invalid("until", "until must be after since")
    after = query.get("after")
    return LogFilters(states=_states(query.get("state"), query.get("outcome")),
                      event_type=_text(query.get("event_type"), "event_type"),
                      event_id=_text(query.get("event_id"), "event_id"), since=since, until=until,
                      after=decode_cursor(after) if after else None, limit=page_limit(query.get("limit")))

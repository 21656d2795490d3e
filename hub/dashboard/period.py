"""The dashboard period: ``from``/``to``/``window_hours`` as plain strings, checked and resolved.

Both dashboard routes share these rules (the needs-attention list has the same defaults and
limits as the snapshot): ``window_hours`` is a whole number 1-720 and excludes ``from`` and
``to``; the period defaults to the 24 hours ending at the snapshot; ``to`` may not be after the
snapshot; the span is at most 30 days; a period starting before ``coverage_start`` is refused
with ``details`` carrying the retained-history bounds.
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from typing import Any

from sqlalchemy import Connection, Row, TextClause

from hub.errors import ValidationFailed
from hub.subscription.projection import timestamp

MAX_SPAN = timedelta(days=30)
DEFAULT_SPAN = timedelta(hours=24)
WINDOW_HOURS_RANGE = (1, 720)
# A '+' offset arrives as a space when a client leaves the query string unencoded.
_SPACED_OFFSET = re.compile(r" (\d{2}:\d{2})$")


def refuse(location: str, message: str, **extra: object) -> ValidationFailed:
    return ValidationFailed(message, errors=[{"location": location, "message": message}], extra=extra or None)


def parse_instant(value: str, location: str) -> datetime:
    """An RFC 3339 instant with an offset (``Z`` or ``±hh:mm``), as UTC."""
    text = _SPACED_OFFSET.sub(r"+\1", value.strip())
    try:
        moment = datetime.fromisoformat(text)
    except ValueError:
        raise refuse(location, "not an RFC 3339 date-time") from None
    if "T" not in text.upper() or moment.tzinfo is None:
        raise refuse(location, "not an RFC 3339 date-time with a UTC offset")
    try:
        return moment.astimezone(UTC)
    except OverflowError:  # e.g. 0001-01-01T00:30:00+01:00 is before year 1 in UTC
        raise refuse(location, "the date-time is out of range") from None


def parse_window_hours(value: str) -> int:
    low, high = WINDOW_HOURS_RANGE
    if not re.fullmatch(r"\d{1,4}", value.strip()) or not low <= int(value) <= high:
        raise refuse("window_hours", f"a whole number of hours from {low} to {high}")
    return int(value)


@dataclass(frozen=True)
class PeriodRequest:
    """What the caller asked for, checked for shape; resolved against a snapshot later."""

    start: datetime | None = None
    end: datetime | None = None
    window_hours: int | None = None

    @classmethod
    def parse(cls, *, from_: str | None, to: str | None, window_hours: str | None) -> PeriodRequest:
        if window_hours is not None and (from_ is not None or to is not None):
            raise refuse("window_hours", "window_hours cannot be sent with from or to")
        if window_hours is not None:
            return cls(window_hours=parse_window_hours(window_hours))
        start = parse_instant(from_, "from") if from_ is not None else None
        end = parse_instant(to, "to") if to is not None else None
        if start is not None and end is not None and start > end:
            raise refuse("from", "from is after to")
        return cls(start=start, end=end)


@dataclass(frozen=True)
class Period:
    """A resolved period ``[start, end)``."""

    start: datetime
    end: datetime

    @property
    def span(self) -> timedelta:
        return self.end - self.start


def resolve(request: PeriodRequest, *, snapshot_at: datetime, coverage: datetime) -> Period:
    """The period the request names at this snapshot, or a 422 saying why it cannot be served."""
    if request.window_hours is not None:
        period = Period(snapshot_at - timedelta(hours=request.window_hours), snapshot_at)
    else:
        end = request.end or snapshot_at
        if end > snapshot_at:
            raise refuse("to", "to is after the snapshot instant")
        period = Period(request.start or _earlier(end, DEFAULT_SPAN), end)
        if period.start > period.end:
            raise refuse("from", "from is after to")
    if period.span > MAX_SPAN:
        raise refuse("from", "the period spans more than 30 days")
    if period.start < coverage:
        raise refuse("from", "the period starts before the retained history",
                     details={"coverage_start": timestamp(coverage), "snapshot_at": timestamp(snapshot_at)})
    return period


def _earlier(moment: datetime, span: timedelta) -> datetime:
    """``moment - span``, or the earliest instant there is when that would fall before year 1
    (such a period starts before any retained history and is refused as such)."""
    try:
        return moment - span
    except OverflowError:
        return datetime.min.replace(tzinfo=UTC)


def hour_parts(period: Period) -> list[tuple[bool, datetime, datetime]]:
    """The period as ``(from_rollup, start, end)`` parts: its whole UTC hours in one part read from the
    hourly rollups, and the partial first and last hour read from the raw tables.

    The parts tile the period, so each row is counted in exactly one of them.
    """
    first_full = _hour_floor(period.start)
    if first_full < period.start:
        first_full += timedelta(hours=1)
    last_full = _hour_floor(period.end)
    if first_full >= last_full:
        return [(False, period.start, period.end)]
    parts = [(True, first_full, last_full)]
    if period.start < first_full:
        parts.append((False, period.start, first_full))
    if last_full < period.end:
        parts.append((False, last_full, period.end))
    return parts


def rows_by_hour_part(connection: Connection, period: Period, *, raw: TextClause, rollup: TextClause,
                      params: Mapping[str, Any]) -> Iterator[Row]:
    """Every row counting ``period``: ``rollup`` over its whole UTC hours, ``raw`` over its partial first and
    last hour (``hour_parts``); both statements take ``:start`` and ``:end``."""
    for from_rollup, start, end in hour_parts(period):
        yield from connection.execute(rollup if from_rollup else raw, {**params, "start": start, "end": end})


def _hour_floor(moment: datetime) -> datetime:
    return moment.astimezone(UTC).replace(minute=0, second=0, microsecond=0)

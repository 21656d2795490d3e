"""The relay's message body of an event-log row: the stored timestamp texts pass through when they are already
what the codec writes, and the bytes are those of the decode-and-format path for every kind of stored value."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta, timezone

import pytest

from hub.consumer import messages

RECEIVED = datetime(2026, 12, 6, 12, 0, 0, 250000, tzinfo=UTC)
STORED = [
    "2024-10-16T14:30:00Z", "2024-10-16T14:30:00.123456Z", "2024-10-16T14:30:00.000000Z",
    "2024-10-16T16:30:00+02:00", "2024-10-16T14:30:00", "2024-10-16T14:30:00.5Z", "not a time", None, 17,
    datetime(2024, 10, 16, 14, 30, tzinfo=timezone(timedelta(hours=-5))),
]


@pytest.mark.parametrize("stored", STORED)
def test_the_body_is_the_codecs(stored: object) -> None:
    attributes = {"occurredat": stored, "publishedat": stored, "principalidentity": "svc@example.com"}
    for event_time in (None, RECEIVED - timedelta(seconds=3)):
        row = ("a.b", "event-publisher-service", attributes, {"n": 1}, event_time, RECEIVED)
        assert messages.log_row_body(*row) == messages.encode(messages.from_log_row(*row))


def test_a_canonical_text_is_not_parsed(monkeypatch: pytest.MonkeyPatch) -> None:
    def refuse(*_: object) -> datetime:
        raise AssertionError("parsed")

    monkeypatch.setattr(messages, "_moment", refuse)
    attributes = {"occurredat": "2024-10-16T14:30:00Z", "publishedat": "2026-12-06T12:00:00.250000Z"}
    body = messages.log_row_body("a.b", "src", attributes, [1], None, RECEIVED)
    assert b'"occurred_at":"2024-10-16T14:30:00Z"' in body and b'"message":{"data":[1]}' in body

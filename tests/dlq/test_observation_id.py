"""Pure logic: the observation id the DLQ observer derives from a record's ``dlq-source-*`` headers."""

from __future__ import annotations

import uuid
from datetime import UTC, datetime

import pytest

from hub.ids import record_uuid
from workers.dlq_observer import observation_id

TOPIC = "lerian.streaming.ledger"
STAMP_MS = 1_900_000_000_123  # 2030-03-17


def _source(**overrides: str) -> dict[str, str]:
    headers = {"dlq-source-topic": TOPIC, "dlq-source-partition": "3", "dlq-source-offset": "41",
               "dlq-source-timestamp": str(STAMP_MS), "dlq-error-class": "validation"}
    headers.update(overrides)
    return {name: value for name, value in headers.items() if value is not None}


def _uuid7_ms(value: uuid.UUID) -> int:
    return int.from_bytes(value.bytes[:6], "big")


def test_the_source_coordinates_fix_the_id():
    """Two dead-letter copies of one poison record get one id: the one the worker's poison attempt uses."""
    first, second = observation_id(_source()), observation_id(_source(**{"dlq-error-message": "other copy"}))
    assert first == second == record_uuid(TOPIC, 3, 41, STAMP_MS)
    assert first.version == 7 and first.variant == uuid.RFC_4122  # a cursor GET /admin/dlq accepts
    assert _uuid7_ms(first) == STAMP_MS  # keyset order by id follows the source record's time


def test_surrounding_whitespace_is_tolerated():
    assert observation_id(_source(**{"dlq-source-topic": f" {TOPIC}\n", "dlq-source-offset": " 41 "})) == \
        record_uuid(TOPIC, 3, 41, STAMP_MS)


@pytest.mark.parametrize("changed", [
    {"dlq-source-topic": "lerian.streaming.billing"},
    {"dlq-source-partition": "4"},
    {"dlq-source-offset": "42"},
])
def test_another_source_record_gets_another_id(changed):
    assert observation_id(_source(**changed)) != observation_id(_source())


def test_the_extremes_of_each_field_are_accepted():
    headers = _source(**{"dlq-source-partition": str(2**31 - 1), "dlq-source-offset": str(2**63 - 1),
                         "dlq-source-timestamp": str(2**48 - 1)})
    assert observation_id(headers) == record_uuid(TOPIC, 2**31 - 1, 2**63 - 1, 2**48 - 1)
    zero = _source(**{"dlq-source-partition": "0", "dlq-source-offset": "0", "dlq-source-timestamp": "0"})
    assert observation_id(zero) == record_uuid(TOPIC, 0, 0, 0)


MALFORMED = [
    pytest.param({"dlq-source-topic": None}, id="no-topic"),
    pytest.param({"dlq-source-partition": None}, id="no-partition"),
    pytest.param({"dlq-source-offset": None}, id="no-offset"),
    pytest.param({"dlq-source-timestamp": None}, id="no-timestamp"),  # a worker of before this header
    pytest.param({"dlq-source-topic": ""}, id="empty-topic"),
    pytest.param({"dlq-source-topic": "no/such topic"}, id="not-a-topic-name"),
    pytest.param({"dlq-source-topic": "x" * 250}, id="topic-too-long"),
    pytest.param({"dlq-source-offset": ""}, id="empty-offset"),
    pytest.param({"dlq-source-offset": "forty-one"}, id="non-numeric"),
    pytest.param({"dlq-source-offset": "4.1"}, id="decimal-point"),
    pytest.param({"dlq-source-offset": "0x29"}, id="hex"),
    pytest.param({"dlq-source-offset": "4_1"}, id="underscore"),
    pytest.param({"dlq-source-offset": "+41"}, id="plus-sign"),
    pytest.param({"dlq-source-offset": "٤١"}, id="non-ascii-digits"),
    pytest.param({"dlq-source-offset": "4\ufffd1"}, id="undecodable-bytes"),
    pytest.param({"dlq-source-timestamp": "-1"}, id="negative-timestamp"),  # Kafka: no timestamp
    pytest.param({"dlq-source-partition": "-3"}, id="negative-partition"),
    pytest.param({"dlq-source-partition": str(2**31)}, id="partition-over-int32"),
    pytest.param({"dlq-source-offset": str(2**63)}, id="offset-over-int64"),
    pytest.param({"dlq-source-timestamp": str(2**48)}, id="timestamp-over-48-bits"),
    pytest.param({"dlq-source-timestamp": "9" * 5000}, id="timestamp-5000-digits"),
    pytest.param({"dlq-source-offset": "0" * 30 + "41"}, id="padded-beyond-the-field"),
]


@pytest.mark.parametrize("broken", MALFORMED)
def test_unreadable_source_headers_fall_back_to_a_fresh_uuid7(broken):
    """Never an exception (it would fail the observer's whole batch): a fresh, time-ordered id instead."""
    before_ms = int(datetime.now(UTC).timestamp() * 1000)
    first, second = observation_id(_source(**broken)), observation_id(_source(**broken))
    after_ms = int(datetime.now(UTC).timestamp() * 1000)
    assert first != second  # fresh each time: such records stay idempotent on their DLQ coordinates only
    assert first.version == 7
    assert before_ms <= _uuid7_ms(first) <= after_ms


def test_a_foreign_record_without_source_headers_gets_a_fresh_uuid7():
    assert observation_id({}).version == 7
    assert observation_id({}) != observation_id({})

"""The consume-with-acks response built from wire bytes is the message the protobuf API builds, for any
event a queue can carry; each body is encoded once, within the cache's budget (N80)."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from typing import Any

from hypothesis import given
from hypothesis import strategies as st

from hub.consumer import messages
from hub.consumer.messages import ConsumerEvent
from hub.consumer.stream import TAG_SPAN
from hub.grpcapi.encoding import EventEncodings, durable_response, event_message, pb

json_values = st.recursive(
    st.none() | st.booleans() | st.integers(-(2**53), 2**53) | st.floats(allow_nan=False) | st.text(),
    lambda children: st.lists(children, max_size=4) | st.dictionaries(st.text(), children, max_size=4),
    max_leaves=12)
moments = st.datetimes(min_value=datetime(1, 1, 2), max_value=datetime(9999, 12, 30),
                       timezones=st.just(UTC))


def built_by_the_api(event: ConsumerEvent, tag: int) -> Any:
    """The response as the servicer built it before N80: field by field, timestamps through FromDatetime."""
    message = pb.Event(event_type=event.event_type, principal_identity=event.principal_identity)
    message.occurred_at.FromDatetime(event.occurred_at)
    message.published_at.FromDatetime(event.published_at)
    message.message.update(event.message)
    return pb.ConsumeDurableEventsWithAcksResponse(events=[message], delivery_tag=tag)


@given(st.text(), st.text(), moments, moments, st.dictionaries(st.text(), json_values, max_size=6),
       st.integers(1, (1 << 30) * TAG_SPAN))
def test_the_wire_built_response_is_the_api_built_one(event_type: str, principal: str, occurred: datetime,
                                                       published: datetime, message: dict, tag: int) -> None:
    event = ConsumerEvent(event_type, principal, occurred, published, message)
    body = messages.encode(event)
    decoded = messages.decode(body, None)
    response = durable_response(EventEncodings(), body, decoded, tag)
    assert response == built_by_the_api(decoded, tag)
    assert response.SerializeToString(deterministic=True) == \
        built_by_the_api(decoded, tag).SerializeToString(deterministic=True)


def test_timestamps_before_1970_and_with_microseconds_are_exact() -> None:
    for moment in (datetime(1969, 12, 31, 23, 59, 59, 500_000, tzinfo=UTC), datetime(1, 1, 1, tzinfo=UTC),
                   datetime(2026, 12, 6, 10, 0, 0, 999_999, tzinfo=UTC),
                   datetime(2026, 12, 6, 12, 0, tzinfo=UTC).astimezone(UTC) + timedelta(microseconds=1)):
        event = ConsumerEvent("t", "p", moment, moment, {})
        assert event_message(event).occurred_at == built_by_the_api(event, 1).events[0].occurred_at


def test_a_body_is_encoded_once_and_the_budget_drops_the_oldest() -> None:
    moment = datetime.now(UTC)
    events = [ConsumerEvent("t", "p", moment, moment, {"n": n, "pad": "x" * 100}) for n in range(50)]
    bodies = [messages.encode(event) for event in events]
    encodings = EventEncodings(budget=20 * 400)
    first = encodings.events_field(bodies[0], events[0])
    assert encodings.events_field(bodies[0], events[1]) is first  # the body names the event: not encoded again
    for body, event in zip(bodies, events, strict=True):
        encodings.events_field(body, event)
    assert 0 < len(encodings) < 50 and encodings.held <= encodings.budget
    assert encodings.events_field(bodies[0], events[0]) == first  # dropped, then encoded again the same


def test_a_large_body_is_not_kept() -> None:
    moment = datetime.now(UTC)
    event = ConsumerEvent("t", "p", moment, moment, {"blob": "y" * 100_000})
    encodings = EventEncodings()
    response = durable_response(encodings, messages.encode(event), event, 7)
    assert len(encodings) == 0 and response == built_by_the_api(event, 7)

"""The encoder's shortcut read-back (N63) accepts exactly what the decoder accepts, as the same Event.

For a binary record of JSON data, ``encode`` takes the Event from the attribute texts and JSON text
it just wrote instead of re-reading the bytes. Hypothesis generates publisher events (odd event
types, resource ids, tenants and subjects, U+0000 anywhere, unicode, messages near the record
limit) and the codec's own generic events; for each, the shortcut's answer must be the decoder's
Event, and it must decline (leaving the answer to the decoder) wherever the decoder refuses; for
publisher events it declines nothing else.
Pure logic, no service.
"""

from __future__ import annotations

import uuid
from datetime import UTC, datetime

import orjson
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from hub.cloudevent.decode import Event, Poison, decode_parts
from hub.cloudevent.encode import JSON, InvalidEvent, _binary, _written_json, attribute_text, encode
from hub.publisher import service
from hub.publisher.access import Publisher
from hub.publisher.models import MAX_EVENT_TYPE_CHARS, MAX_RESOURCE_ID_CHARS, PublishEvent
from tests.cloudevent.test_encode import events

MAX = 1_048_576
ODD = st.text(alphabet=st.characters(blacklist_categories=("Cs",)), max_size=12)  # U+0000 included
TEXTS = ODD | st.sampled_from(["", " ", "\x00", "a\x00b", "é", "日本", "🎉", "a" * 300])
MESSAGES = st.recursive(
    st.none() | st.booleans() | st.integers(-(2**63), 2**63 - 1) | st.floats(allow_nan=False, allow_infinity=False)
    | ODD, lambda inner: st.lists(inner, max_size=4) | st.dictionaries(ODD, inner, max_size=4), max_leaves=15)


@st.composite
def publisher_events(draw) -> tuple[Publisher, PublishEvent, int]:
    publisher = Publisher(draw(TEXTS), draw(TEXTS), frozenset({"*"}))
    event_type = draw(TEXTS.filter(lambda text: text.strip()) | st.text(min_size=MAX_EVENT_TYPE_CHARS,
                                                                       max_size=MAX_EVENT_TYPE_CHARS))
    resource_id = draw(st.none() | TEXTS.filter(bool) | st.just("r" * MAX_RESOURCE_ID_CHARS))
    message = draw(st.dictionaries(ODD, MESSAGES, max_size=5))
    if draw(st.booleans()):
        message["big"] = "x" * draw(st.integers(0, 4000))
    occurred = draw(st.datetimes(min_value=datetime(1, 1, 2), max_value=datetime(9999, 12, 30), timezones=st.just(UTC)))
    event = PublishEvent(event_type, message, occurred, resource_id)
    # A limit around this record's size, so both sides of it are tried; or the setting's default.
    size = len(orjson.dumps(message)) + 600 + 2 * len(resource_id or "") + len(event_type.encode()) * 2
    return publisher, event, draw(st.just(MAX) | st.integers(max(size - 1200, 1), size + 600))


def answers(attributes: dict, data: object, max_bytes: int) -> tuple[Event | None, Event | Poison]:
    """(the shortcut's Event or None, the decoder's answer) for one binary record of ATTRIBUTES and DATA."""
    value, headers, written = _binary(attributes, data, attributes.get("datacontenttype"))
    key = None if attributes.get("partitionkey") is None else attribute_text(attributes["partitionkey"]).encode()
    return _written_json(written, key, value, max_bytes), decode_parts(headers, key, value, max_bytes=max_bytes)


@pytest.fixture(autouse=True, scope="module")
def names_seen() -> None:
    """The shortcut only takes names the decoder has checked: one record of each kind teaches them."""
    publisher = Publisher("t", "s", frozenset({"*"}))
    service.build_record(publisher, PublishEvent("a.b", {}, datetime.now(UTC), "r"), "2024-01-01T00:00:00Z")


def assert_same(fast: Event | None, slow: Event | Poison, *, names_known: bool = True) -> None:
    """The shortcut declines every refusal; it takes every acceptance as the same Event (one with a
    name it has not seen may be left to the decoder: declining is always sound)."""
    if isinstance(slow, Poison):
        assert fast is None, slow
    elif names_known or fast is not None:
        assert fast == slow


@settings(max_examples=600, deadline=None)
@given(publisher_events())
def test_the_shortcut_answers_as_the_decoder_for_publisher_events(drawn) -> None:
    publisher, event, max_bytes = drawn
    try:
        attributes = service.outbound_event(publisher, event, "2024-10-16T14:30:00.123456Z").attributes()
    except orjson.JSONEncodeError:
        return  # an unwritable message fails before the codec, either way
    assert_same(*answers(attributes, event.message, max_bytes))


@settings(max_examples=400, deadline=None)
@given(publisher_events())
def test_encode_stores_or_refuses_publisher_events_as_the_decoder_reads_them(drawn) -> None:
    publisher, event, max_bytes = drawn
    try:
        attributes = service.outbound_event(publisher, event, "2024-10-16T14:30:00.123456Z").attributes()
    except orjson.JSONEncodeError:
        return
    value, headers, _ = _binary(attributes, event.message, JSON)
    key = None if event.resource_id is None else event.resource_id.encode()
    slow = decode_parts(headers, key, value, max_bytes=max_bytes)
    try:
        record = encode(attributes, event.message, max_bytes=max_bytes)
    except InvalidEvent as exc:
        assert isinstance(slow, Poison) and (exc.error_class, exc.message) == (slow.error_class, slow.message)
    else:
        assert record.event == slow
        assert (list(record.headers), record.key, record.value) == (headers, key, value)


@settings(max_examples=300, deadline=None)
@given(events())
def test_the_shortcut_answers_as_the_decoder_for_any_json_event(event) -> None:
    attributes, data = event
    if data is None or isinstance(data, bytes) or attributes.get("datacontenttype", JSON) != JSON:
        return  # not JSON data: the shortcut is never asked
    attributes = {**attributes, "datacontenttype": JSON}
    assert_same(*answers(attributes, data, MAX), names_known=False)


def test_the_shortcut_is_taken_for_a_publisher_event_and_declines_a_refusal() -> None:
    publisher = Publisher("tenant", "subject", frozenset({"*"}))
    event = PublishEvent("a.b", {"n": 1}, datetime(2024, 10, 16, tzinfo=UTC), "/r/1")
    attributes = service.outbound_event(publisher, event, "2024-10-16T14:30:00Z").attributes()
    fast, slow = answers(attributes, event.message, MAX)
    assert fast is not None and fast == slow
    fast, slow = answers(attributes, {"x": "y" * MAX}, MAX)
    assert fast is None and isinstance(slow, Poison)
    fast, slow = answers({**attributes, "tenantid": ""}, event.message, MAX)
    assert fast is None and isinstance(slow, Poison)


@settings(max_examples=300, deadline=None)
@given(st.binary(max_size=300))
def test_event_ids_are_uuid5_of_the_content(content) -> None:
    text = content.decode(errors="replace").encode()
    assert service.uuid5_text(text) == str(uuid.uuid5(service.ID_NAMESPACE, text.decode()))

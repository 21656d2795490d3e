"""The SSE frames as the seed prints them: ``connected``, ``event`` and the ``error`` event that ends a stream
(the broker-cancelled case has no way to be provoked on the shared broker, so its frame is checked here)."""

from __future__ import annotations

from datetime import UTC, datetime

from hub.consumer.errors import BROKER_CANCELLED, ConsumerCancelled, QueueNotFound
from hub.consumer.messages import ConsumerEvent
from hub.consumer.sse import connected, error_frame, frame
from tests.consumer.sse_client import frames_of


def test_connected_is_the_seeds_frame() -> None:
    assert connected("my-queue-id") == (b'event: connected\nid: my-queue-id\n'
                                        b'data: {"message":"Connection established","reconnect_token":"my-queue-id"}\n\n')


def test_an_event_frame_carries_the_token_and_the_seeds_event() -> None:
    moment = datetime(2024, 10, 16, 14, 30, tzinfo=UTC)
    event = ConsumerEvent("myapp.user.created", "user@example.com", moment, moment, {"user_id": "123"})
    [parsed] = frames_of(iter(frame("event", event.as_json(), "nd-1").decode().split("\n")))
    assert (parsed.event, parsed.id) == ("event", "nd-1")
    assert parsed.json() == {"event_type": "myapp.user.created", "principal_identity": "user@example.com",
                             "occurred_at": "2024-10-16T14:30:00Z", "published_at": "2024-10-16T14:30:00Z",
                             "message": {"user_id": "123"}}


def test_error_events_carry_the_message_and_status_code() -> None:
    [cancelled] = frames_of(iter(error_frame(ConsumerCancelled(), "q").decode().split("\n")))
    assert cancelled.event == "error" and cancelled.json() == {"message": BROKER_CANCELLED, "status_code": 500}
    assert BROKER_CANCELLED == ("Internal Server Error: The broker cancelled this stream's consumer. "
                                "Reconnect to resume consuming.")
    [gone] = frames_of(iter(error_frame(QueueNotFound("the queue no longer exists"), "q").decode().split("\n")))
    assert gone.json() == {"message": "the queue no longer exists", "status_code": 404}
    [unexpected] = frames_of(iter(error_frame(RuntimeError("secret detail"), "q").decode().split("\n")))
    assert unexpected.json() == {"message": "Internal Server Error", "status_code": 500}

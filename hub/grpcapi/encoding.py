"""Seed 000's consumer ``Event`` messages, and the consume-with-acks responses built from their wire bytes.

A queue message's body names its ``Event`` entirely (the resource id rides in a header the ``Event`` has
no field for), so :class:`EventEncodings` encodes each recent body once: the streams of every queue
that receives the same event in this process share it. A response is then its ``events`` field's bytes
and its tag's, parsed by protobuf's C parser: cheaper than building the message field by field (N80).
"""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

from hub.consumer.messages import ConsumerEvent
from hub.grpcapi.stubs import consumer_stubs

pb, _ = consumer_stubs()
EPOCH = datetime(1970, 1, 1, tzinfo=UTC)
EVENTS_FIELD, DELIVERY_TAG_FIELD = b"\x0a", b"\x10"  # field 1, length-delimited; field 2, varint
CACHE_BYTES = 8 << 20  # the bodies and encodings kept, together
LARGEST_CACHED = 64 << 10  # a larger body is encoded for its delivery only


def set_timestamp(field: Any, moment: datetime) -> None:
    """FIELD (a ``Timestamp``) set to MOMENT, an aware datetime; exact, without ``FromDatetime``'s timegm."""
    delta = moment - EPOCH
    field.seconds = delta.days * 86_400 + delta.seconds
    field.nanos = delta.microseconds * 1000


def event_message(event: ConsumerEvent) -> Any:
    message = pb.Event(event_type=event.event_type, principal_identity=event.principal_identity)
    set_timestamp(message.occurred_at, event.occurred_at)
    set_timestamp(message.published_at, event.published_at)
    message.message.update(event.message)
    return message


def varint(value: int) -> bytes:
    """VALUE (≥ 0) as a protobuf varint."""
    out = bytearray()
    while value > 0x7F:
        out.append(value & 0x7F | 0x80)
        value >>= 7
    out.append(value)
    return bytes(out)


class EventEncodings:
    """Each recent body's ``events`` field (tag, length, ``Event`` bytes), oldest dropped past the budget."""

    def __init__(self, budget: int = CACHE_BYTES) -> None:
        self.budget, self.held = budget, 0
        self._by_body: dict[bytes, bytes] = {}

    def events_field(self, body: bytes, event: ConsumerEvent) -> bytes:
        """The field of EVENT, whose queue message body is BODY."""
        found = self._by_body.get(body)
        if found is None:
            encoded = event_message(event).SerializeToString()
            found = EVENTS_FIELD + varint(len(encoded)) + encoded
            if len(body) <= LARGEST_CACHED:
                self._keep(body, found)
        return found

    def _keep(self, body: bytes, field: bytes) -> None:
        self._by_body[body] = field
        self.held += len(body) + len(field)
        while self.held > self.budget:
            oldest = next(iter(self._by_body))
            self.held -= len(oldest) + len(self._by_body.pop(oldest))

    def __len__(self) -> int:
        return len(self._by_body)


def durable_response(encodings: EventEncodings, body: bytes, event: ConsumerEvent, tag: int) -> Any:
    """The ``ConsumeDurableEventsWithAcksResponse`` of one delivery: EVENT (of BODY) and its TAG (≥ 0)."""
    wire = encodings.events_field(body, event) + DELIVERY_TAG_FIELD + varint(tag)
    return pb.ConsumeDurableEventsWithAcksResponse.FromString(wire)

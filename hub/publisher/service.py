"""Publishing: each event checked, permitted, encoded as a CloudEvent and made durable on the backbone.

An event becomes a CloudEvent (docs/contract-notes.md N33) with ``source`` ``event-publisher-service``,
``type`` its ``event_type``, ``time`` its ``occurred_at``, the extensions ``occurredat``,
``publishedat`` (stamped here), ``resourceid`` and ``principalidentity``, and the ``message`` as
its JSON data, produced to ``<prefix>event-publisher-service`` by the shared backbone producer
(acks=all) and stored once by ``hub ingest`` like any other event. Its id is derived from the
event's content and publisher, so a client that publishes the same event again (a retry after an
unclear answer) gets one stored event (E5, D19 dedup). An event answers success only when the
backbone acknowledged it; everything else is ``success: false`` with its reason, in request order.
"""

from __future__ import annotations

import hashlib
import uuid
from collections.abc import Sequence
from datetime import UTC, datetime

import orjson

from hub import tracing
from hub.backbone.outbound import OutboundEvent, to_record, topic_for
from hub.backbone.producer import PublishResult, shared_producer
from hub.cloudevent.encode import InvalidEvent as UnstorableEvent
from hub.cloudevent.encode import KafkaRecord, attribute_text
from hub.config import get_settings
from hub.errors import PermissionDenied, ValidationFailed
from hub.publisher.access import Publisher
from hub.publisher.admission import Overloaded, admitted
from hub.publisher.models import InvalidEvent, PublishEvent, PublishOutcome

SOURCE = "event-publisher-service"
ID_NAMESPACE = uuid.UUID("6f1c3a52-9a4e-5a8e-9d3b-2f77fcc663fd")
_NAMESPACE_BYTES = ID_NAMESPACE.bytes
BROKER_UNREACHABLE = "Unable to connect to message broker"  # the seed's wording
QUEUE_FULL = "the local produce queue is full"  # hub.backbone.producer's refusal when it cannot take more
_LANDED, _UNCONFIRMED = PublishOutcome(True), PublishOutcome(False, BROKER_UNREACHABLE)


def publish_topic() -> str:
    """The backbone topic of published events: ``<prefix>event-publisher-service``."""
    return topic_for(SOURCE)


def event_id(publisher: Publisher, event: PublishEvent, occurred_at: str) -> str:
    """The CloudEvent id: the same event from the same publisher always gets the same id (E5).
    OCCURRED_AT is the event's ``occurred_at`` as written (``attribute_text``)."""
    content = orjson.dumps([publisher.subject, event.event_type, occurred_at,
                            event.resource_id, event.message], option=orjson.OPT_SORT_KEYS)
    return uuid5_text(content)


def uuid5_text(name: bytes) -> str:
    """``str(uuid.uuid5(ID_NAMESPACE, NAME.decode()))`` without the UUID object (N63): the SHA-1 of the
    namespace and NAME, its version and variant bits set, as the 8-4-4-4-12 hex text."""
    digest = bytearray(hashlib.sha1(_NAMESPACE_BYTES + name).digest()[:16])  # noqa: S324 (UUIDv5 is SHA-1)
    digest[6] = (digest[6] & 0x0F) | 0x50  # version 5
    digest[8] = (digest[8] & 0x3F) | 0x80  # the RFC 4122 variant
    text = digest.hex()
    return f"{text[:8]}-{text[8:12]}-{text[12:16]}-{text[16:20]}-{text[20:]}"


def outbound_event(publisher: Publisher, event: PublishEvent, published_at: str,
                   traceparent: str | None = None) -> OutboundEvent:
    """One published event as it goes onto the backbone (N33; PUBLISHED_AT written once per call). The
    timestamps go in as text, each written once (N61)."""
    occurred = attribute_text(event.occurred_at)
    return OutboundEvent(
        source=SOURCE, event_type=event.event_type, tenant_id=publisher.tenant_id,
        event_id=event_id(publisher, event, occurred), time=occurred, data=event.message,
        occurred_at=occurred, published_at=published_at, principal_identity=publisher.subject or None,
        resource_id=event.resource_id, partition_key=event.resource_id,  # one resource's events keep their order
        traceparent=traceparent)


def build_record(publisher: Publisher, event: PublishEvent, published_at: str,
                 traceparent: str | None = None) -> KafkaRecord:
    """The Kafka record of one event; raises the codec's InvalidEvent when ingest would refuse it."""
    return to_record(outbound_event(publisher, event, published_at, traceparent))


def _prepare(publisher: Publisher, events: Sequence[PublishEvent | InvalidEvent],
             published_at: str) -> tuple[list[PublishOutcome | None], list[KafkaRecord], list[int]]:
    """Outcomes of the events that fail before the broker, and the records (with positions) of the rest."""
    outcomes: list[PublishOutcome | None] = []
    records: list[KafkaRecord] = []
    positions: list[int] = []
    traceparent = tracing.current_traceparent()  # the request's span: each event's trace continues it
    for position, event in enumerate(events):
        if isinstance(event, InvalidEvent):
            outcomes.append(PublishOutcome(False, f"Invalid event: {event.reason}"))
        elif not publisher.may_publish(event.event_type):
            outcomes.append(PublishOutcome(False, denied_reason(event.event_type)))
        else:
            try:
                records.append(build_record(publisher, event, published_at, traceparent))
            except UnstorableEvent as exc:
                outcomes.append(PublishOutcome(False, f"Invalid event: {exc.message}"))
                continue
            outcomes.append(None)
            positions.append(position)
    return outcomes, records, positions


def denied_reason(event_type: str) -> str:
    """The reason of an event whose type the token does not list."""
    return f"Permission denied: not authorized to publish event type {event_type!r}"


def _broker_outcomes(result: PublishResult, count: int) -> list[PublishOutcome]:
    """One outcome per record of RESULT, by index: durable, refused, or unconfirmed in time."""
    outcomes = [_UNCONFIRMED] * count  # outcomes are frozen: one object serves every record
    for landed in result.landed:
        outcomes[landed.index] = _LANDED
    for refused in result.refused:
        reason = "Service temporarily overloaded" if refused.error == QUEUE_FULL else f"Publish failed: {refused.error}"
        outcomes[refused.index] = PublishOutcome(False, reason)
    return outcomes


async def publish_events(*, publisher: Publisher,
                         events: Sequence[PublishEvent | InvalidEvent]) -> list[PublishOutcome]:
    """Publish EVENTS for PUBLISHER; one outcome per event, in order. Raises Overloaded (nothing sent)."""
    settings = get_settings()
    outcomes, records, positions = _prepare(publisher, events, attribute_text(datetime.now(UTC)))
    if records:
        with admitted(len(records)):
            result = await shared_producer().publish_async(
                publish_topic(), records, timeout_seconds=settings.publisher_ack_timeout_seconds)
        if not result.landed and any(refused.error == QUEUE_FULL for refused in result.refused):
            raise Overloaded()  # the producer cannot take more: nothing of this call was sent
        for position, outcome in zip(positions, _broker_outcomes(result, len(records)), strict=True):
            outcomes[position] = outcome
    return [outcome for outcome in outcomes if outcome is not None]


async def publish_one(*, publisher: Publisher, event: PublishEvent | InvalidEvent) -> PublishOutcome:
    """A single publish: an invalid event is 422 / INVALID_ARGUMENT, a type not listed 403 /
    PERMISSION_DENIED; a broker failure is a ``success: false`` outcome, as the seed shows."""
    if isinstance(event, InvalidEvent):
        raise ValidationFailed(f"invalid event: {event.reason}",
                               errors=[{"location": "event", "message": event.reason}])
    if not publisher.may_publish(event.event_type):
        raise PermissionDenied(f"not authorized to publish event type {event.event_type!r}")
    [outcome] = await publish_events(publisher=publisher, events=[event])
    if outcome.failure_reason.startswith("Invalid event: "):
        message = outcome.failure_reason.removeprefix("Invalid event: ")
        raise ValidationFailed(f"invalid event: {message}", errors=[{"location": "event", "message": message}])
    return outcome


def check_batch_size(count: int) -> None:
    """A batch holds at most ``publisher_batch_max_events`` events (422 / INVALID_ARGUMENT past it)."""
    limit = get_settings().publisher_batch_max_events
    if count > limit:
        raise ValidationFailed(f"a batch holds at most {limit} events",
                               errors=[{"location": "events", "message": f"at most {limit} events"}])

"""``hub send``: produce CloudEvents to the backbone as a producing application would.

The event goes to the source's topic ``<prefix><source>`` (created when missing, as the hub
creates its own topics), encoded by the hub's codec (:mod:`hub.cloudevent.encode`) in binary mode
(``ce_`` headers, the data as the value) or structured mode (one ``application/cloudevents+json``
envelope), and produced by the backbone producer (:mod:`hub.backbone.producer`). ``hub ingest``
reads both modes.
"""

from __future__ import annotations

import re
import uuid
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import orjson

from hub.backbone.outbound import OutboundEvent, to_record
from hub.backbone.outbound import topic_for as backbone_topic
from hub.backbone.producer import shared_producer
from hub.cloudevent.encode import MODES, InvalidEvent, KafkaRecord
from hub.config import get_settings

# Kafka's legal topic names are [a-zA-Z0-9._-], at most 249 characters with the prefix.
_TOPIC_CHARS = re.compile(r"^[A-Za-z0-9._-]+$")
MAX_TOPIC_LENGTH = 249


class SendError(Exception):
    """The event cannot be sent as asked; the message says why."""


@dataclass(frozen=True)
class SendRequest:
    """What ``hub send`` was asked to produce."""

    tenant: str
    source: str
    event_type: str
    data: Any
    ce_id: str | None = None
    mode: str = "binary"
    count: int = 1
    key: str | None = None
    schema_version: str | None = None


@dataclass(frozen=True)
class Sent:
    """One event the broker acknowledged."""

    ce_id: str
    topic: str
    partition: int
    offset: int


def read_data(text: str) -> Any:
    """The event data: JSON text, or ``@path`` naming a file that holds JSON."""
    if text.startswith("@"):
        try:
            text = Path(text[1:]).read_text(encoding="utf-8")
        except OSError as exc:
            raise SendError(f"cannot read the data file {text[1:]!r}: {exc.strerror}") from None
    try:
        return orjson.loads(text)
    except orjson.JSONDecodeError:
        raise SendError("--data is not valid JSON (give JSON text, or @file holding JSON)") from None


def topic_for(source: str) -> str:
    """The backbone topic of a producing application: ``<prefix><source>``, never the DLQ topic."""
    settings = get_settings()
    topic = backbone_topic(source, settings)
    if not source or not _TOPIC_CHARS.match(topic) or len(topic) > MAX_TOPIC_LENGTH:
        raise SendError(f"source {source!r} does not make a Kafka topic name (letters, digits, '.', '_', '-')")
    if topic == settings.dlq_topic:
        raise SendError("that source names the hub's dead-letter topic; choose another")
    return topic


def event_ids(request: SendRequest) -> list[str]:
    """One id per event: fresh UUIDs, or the given id (suffixed ``-1``… when sending several)."""
    if request.ce_id is None:
        return [str(uuid.uuid4()) for _ in range(request.count)]
    if request.count == 1:
        return [request.ce_id]
    return [f"{request.ce_id}-{n}" for n in range(1, request.count + 1)]


def build_message(request: SendRequest, ce_id: str) -> KafkaRecord:
    """The Kafka record of one event, encoded in the requested content mode."""
    event = OutboundEvent(source=request.source, event_type=request.event_type, tenant_id=request.tenant,
                          event_id=ce_id, time=datetime.now(UTC), data=request.data,
                          partition_key=request.key or None, schema_version=request.schema_version or None)
    try:
        return to_record(event, mode=request.mode)
    except InvalidEvent as exc:
        raise SendError(f"the hub would not store that event: {exc.message}") from None


def send(request: SendRequest, *, timeout_seconds: float = 30.0) -> list[Sent]:
    """Produce the events, wait for every acknowledgement, and return where each one landed."""
    if request.mode not in MODES:
        raise SendError(f"mode must be one of {', '.join(MODES)}")
    if request.count < 1:
        raise SendError("count must be at least 1")
    topic = topic_for(request.source)
    ids = event_ids(request)
    records = [build_message(request, ce_id) for ce_id in ids]
    result = shared_producer().publish(topic, records, timeout_seconds=timeout_seconds)
    if not result.durable:
        raise SendError(result.describe_failure("events"))
    return [Sent(ids[landed.index], topic, landed.partition, landed.offset) for landed in result.landed]

"""The one way onto the backbone: a surface states its event as an :class:`OutboundEvent`, and
:func:`to_record` turns it into the Kafka record ingest will store; :func:`topic_for` names the topic.

Every producing surface (the seed 000 publisher, the seed 003 broker, the hub's lifecycle events,
``hub send`` and the chaos traffic) builds its records here, so the attributes a surface promises are
written one way: ``tests/backbone/test_outbound.py`` decodes each surface's records with the ingest
decoder and checks them. The record key is the ``partitionkey`` attribute (the CloudEvents
Partitioning extension): events with one key share a partition, so the backbone keeps their order.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import Any

from hub.cloudevent.encode import BINARY, KafkaRecord, encode
from hub.config import Settings, get_settings

JSON = "application/json"


# Not frozen: a frozen dataclass sets each of its fields through object.__setattr__, which cost the
# publisher ~3 µs per event; nothing changes an OutboundEvent after it is made.
@dataclass(slots=True)
class OutboundEvent:
    """One event a hub surface puts on the backbone: the CloudEvent attributes it promises, typed.

    ``None`` leaves an optional attribute out. Times are ``datetime`` values or RFC 3339 texts.
    """

    source: str
    event_type: str
    tenant_id: str
    event_id: str
    time: datetime | str
    data: Any
    partition_key: str | None = None
    subject: str | None = None
    schema_version: str | None = None
    occurred_at: str | None = None
    published_at: str | None = None
    principal_identity: str | None = None
    resource_id: str | None = None
    delegated_scope: str | None = None
    traceparent: str | None = None  # the producing request's span (N59, N71): the event's trace continues it
    content_type: str = JSON

    def attributes(self) -> dict[str, Any]:
        """The CloudEvent attributes by their wire names, the optional ones only when set."""
        attributes = {"specversion": "1.0", "id": self.event_id, "source": self.source, "type": self.event_type,
                      "tenantid": self.tenant_id, "time": self.time, "datacontenttype": self.content_type}
        # One test per attribute, no tuple of pairs built per event: this runs for every published event.
        if self.occurred_at is not None:
            attributes["occurredat"] = self.occurred_at
        if self.published_at is not None:
            attributes["publishedat"] = self.published_at
        if self.principal_identity is not None:
            attributes["principalidentity"] = self.principal_identity
        if self.resource_id is not None:
            attributes["resourceid"] = self.resource_id
        if self.partition_key is not None:
            attributes["partitionkey"] = self.partition_key
        if self.subject is not None:
            attributes["subject"] = self.subject
        if self.schema_version is not None:
            attributes["schemaversion"] = self.schema_version
        if self.delegated_scope is not None:
            attributes["delegatedscope"] = self.delegated_scope
        if self.traceparent is not None:
            attributes["traceparent"] = self.traceparent
        return attributes


def to_record(event: OutboundEvent, *, mode: str = BINARY, settings: Settings | None = None) -> KafkaRecord:
    """EVENT as a Kafka record in MODE (binary or structured); raises ``InvalidEvent`` when ingest would
    refuse it (the codec reads every record back with the ingest decoder)."""
    return encode(event.attributes(), event.data, mode=mode,
                  max_bytes=(settings or get_settings()).kafka_max_record_bytes)


def topic_for(source: str, settings: Settings | None = None) -> str:
    """The backbone topic of a producer's events: the configured prefix, then the source."""
    return f"{(settings or get_settings()).kafka_topic_prefix}{source}"

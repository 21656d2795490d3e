"""Turning a claimed job and its subscription's view into a prepared delivery: the CloudEvent body.

The body is the structured-mode CloudEvent: the stored context attributes with ``data`` appended
as the exact JSON text the event log holds (never re-encoded), or ``data_base64`` for a payload
that was stored as base64. Everything else a delivery carries (destination, timeout, unsealed
secrets, credential, static headers) is the subscription's :class:`DeliveryView`, built at the claim.
"""

from __future__ import annotations

import uuid
from functools import lru_cache
from typing import Any

import orjson
from uuid_utils.compat import uuid7

from hub.providers.registry import provider_for
from hub.sinks.base import PreparedDelivery
from hub.sinks.vocabulary import SinkKind
from hub.subscription.delivery_view import DeliveryView
from workers.deliver.store import ClaimedJob, StoredEvent

BASE64_MARK = "data_base64"  # the ingest decoder's marker: the data column holds base64 text


class NotDeliverable(Exception):
    """The job cannot be prepared (its event or a secret is unusable); ``error_class`` says why."""

    def __init__(self, error_class: str, detail: str) -> None:
        super().__init__(detail)
        self.error_class, self.detail = error_class, detail


def cloudevent_body(event: StoredEvent) -> tuple[bytes, dict[str, Any]]:
    """The structured CloudEvent bytes of a stored event, and its context attributes."""
    attributes = orjson.loads(event.attributes_json)
    as_base64 = attributes.pop(BASE64_MARK, None) is True
    head = orjson.dumps(attributes)
    if event.data_json is None:
        return head, attributes
    member = b',"data_base64":' if as_base64 else b',"data":'
    return head[:-1] + member + event.data_json.encode() + b"}", attributes


def prepare(job: ClaimedJob, event: StoredEvent | None, view: DeliveryView,
            bodies: dict[int, tuple[bytes, dict[str, Any]]]) -> PreparedDelivery:
    """Everything the sink needs for this try of ``job``; raises NotDeliverable.

    ``bodies`` memoizes each event's body within a batch (an event fans out to many subscriptions).
    """
    if event is None:
        raise NotDeliverable("internal", "the job's event is no longer in the event log")
    if view.problem:
        raise NotDeliverable("internal", view.problem)
    found = bodies.get(id(event))
    if found is None:
        found = bodies[id(event)] = cloudevent_body(event)
    body, attributes = found
    return PreparedDelivery(
        delivery_id=str(job.id), job_id=job.id, tenant_id=job.tenant_id, subscription_id=job.subscription_id,
        sink_kind=view.destination.kind, endpoint=view.destination.target, body=body, attributes=attributes,
        attempt=job.attempts + 1, timeout_seconds=view.timeout_seconds, signing_secrets=view.signing_secrets,
        credential=view.access.credential, grant=view.access.grant, headers=view.headers,
        ordering_key=job.ordering_key)


@lru_cache(maxsize=65_536)
def destination_key(kind: SinkKind, endpoint: str) -> str:
    """The per-destination concurrency key, as the kind's provider defines it (cached per endpoint)."""
    return provider_for(kind).destination_key(endpoint)


def new_attempt_id() -> uuid.UUID:
    """A time-ordered (version 7) id, made as a standard ``uuid.UUID`` by uuid_utils itself (no bytes round trip)."""
    return uuid7()

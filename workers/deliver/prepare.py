"""Turning a claimed job into a prepared delivery: the CloudEvent body, the destination, the secrets.

The body is the structured-mode CloudEvent: the stored context attributes with ``data`` appended
as the exact JSON text the event log holds (never re-encoded), or ``data_base64`` for a payload
that was stored as base64. Signing secrets are unsealed once per sealed value and kept in a small
cache (a rotated secret is a new sealed value, so it is never served stale).
"""

from __future__ import annotations

import uuid
from dataclasses import dataclass
from datetime import datetime
from functools import lru_cache
from typing import Any

import orjson
import uuid_utils

from hub.providers.base import NO_ACCESS, Access, Provider, stored_access
from hub.providers.registry import provider_for
from hub.secrets import SecretsError, unseal
from hub.sinks.base import PreparedDelivery
from hub.sinks.vocabulary import SinkKind
from hub.subscription.service import attempt_timeout_seconds, secret_context, signing_secrets
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


@lru_cache(maxsize=8192)
def _unsealed(envelope: str, context: str) -> str:
    return unseal(envelope, context=context).decode("ascii")


def webhook_secrets(subscription: dict[str, Any], now: datetime) -> tuple[str, ...]:
    """The current secret, then the previous one while the rotation overlap lasts (cached unsealing)."""
    try:
        return signing_secrets(subscription_id=subscription["id"], current=subscription["secret_current"],
                               previous=subscription["secret_previous"],
                               overlap_until=subscription["secret_overlap_until"], now=now, opener=_unsealed)
    except SecretsError:
        raise NotDeliverable("internal", "the subscription's signing secret could not be opened") from None


def access(subscription: dict[str, Any]) -> Access:
    """The stored credential (cached unsealing) or grant a delivery to ``subscription`` uses."""
    context = secret_context(subscription["id"], "credential")
    try:
        return stored_access(credential_sealed=subscription["credential_sealed"],
                             delegated_grant=subscription["delegated_grant"],
                             external_id=subscription.get("external_id"),
                             open_credential=lambda envelope: _unsealed(envelope, context))
    except (SecretsError, ValueError):
        raise NotDeliverable("internal", "the subscription's credential could not be opened") from None


@dataclass(frozen=True, slots=True)
class SubscriptionParts:
    """What every delivery of one subscription shares within a batch (worked out once per subscription)."""

    kind: SinkKind
    endpoint: str
    timeout_seconds: float
    signing_secrets: tuple[str, ...]
    credential: dict[str, Any] | None
    grant: dict[str, Any] | None
    headers: tuple[tuple[str, str], ...]


def static_headers(provider: Provider, subscription: dict[str, Any]) -> tuple[tuple[str, str], ...]:
    """The static headers the kind's provider sends (N54), secret values unsealed once (cached)."""
    try:
        return provider.delivery_headers(subscription.get("custom_headers"), subscription_id=subscription["id"],
                                         opener=_unsealed)
    except SecretsError:
        raise NotDeliverable("internal", "a static header of the subscription could not be opened") from None


def subscription_parts(subscription: dict[str, Any], now: datetime) -> SubscriptionParts:
    """The subscription's destination, timeout, unsealed secrets or credential; raises NotDeliverable."""
    provider: Provider = provider_for(subscription["sink_kind"])
    reach = access(subscription) if provider.needs_access else NO_ACCESS
    return SubscriptionParts(
        kind=provider.kind, endpoint=subscription["endpoint"],
        timeout_seconds=attempt_timeout_seconds(subscription["timeout_ms"]),
        signing_secrets=webhook_secrets(subscription, now) if provider.signs else (),
        credential=reach.credential, grant=reach.grant, headers=static_headers(provider, subscription))


def prepare(job: ClaimedJob, event: StoredEvent | None, subscription: dict[str, Any], now: datetime,
            bodies: dict[int, tuple[bytes, dict[str, Any]]],
            parts: dict[uuid.UUID, SubscriptionParts]) -> PreparedDelivery:
    """Everything the sink needs for this try of ``job``; raises NotDeliverable.

    ``bodies`` memoizes each event's body and ``parts`` each subscription's shared parts within a
    batch (an event fans out to many subscriptions, a subscription gets many events).
    """
    if event is None:
        raise NotDeliverable("internal", "the job's event is no longer in the event log")
    found = bodies.get(id(event))
    if found is None:
        found = bodies[id(event)] = cloudevent_body(event)
    body, attributes = found
    shared = parts.get(job.subscription_id)
    if shared is None:
        shared = parts[job.subscription_id] = subscription_parts(subscription, now)
    return PreparedDelivery(
        delivery_id=str(job.id), job_id=job.id, tenant_id=job.tenant_id, subscription_id=job.subscription_id,
        sink_kind=shared.kind, endpoint=shared.endpoint, body=body, attributes=attributes,
        attempt=job.attempts + 1, timeout_seconds=shared.timeout_seconds, signing_secrets=shared.signing_secrets,
        credential=shared.credential, grant=shared.grant, headers=shared.headers)


@lru_cache(maxsize=65_536)
def destination_key(kind: SinkKind, endpoint: str) -> str:
    """The per-destination concurrency key, as the kind's provider defines it (cached per endpoint)."""
    return provider_for(kind).destination_key(endpoint)


def new_attempt_id() -> uuid.UUID:
    return uuid.UUID(bytes=uuid_utils.uuid7().bytes)

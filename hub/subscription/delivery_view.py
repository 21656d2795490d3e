"""One subscription as the delivery engine sees it: a typed, immutable value built from its row (N68).

The deliver worker reads :data:`VIEW_COLUMNS` of each subscription its batch names (one query per
claim) and turns each row into a :class:`DeliveryView`: where deliveries go, how long a try may
take, the secrets and headers it signs and sends with (already unsealed), its rate limit, filter and
ordering policy (N77), and whether it is delivered to at all (:mod:`hub.subscription.deliverability`).
Sealed values are opened only for a deliverable subscription, once per sealed value (a small cache: a
rotated secret is a new sealed value, so it is never served stale).
"""

from __future__ import annotations

import uuid
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime
from functools import lru_cache
from typing import Any

from hub.providers.base import NO_ACCESS, Access, Provider, stored_access
from hub.providers.registry import find_provider
from hub.secrets import SecretsError, unseal
from hub.sinks.vocabulary import SinkKind
from hub.subscription.deliverability import Deliverability, deliverability
from hub.subscription.models import Subscription
from hub.subscription.ordering_policy import OrderingPolicy, ordering_policy
from hub.subscription.service import attempt_timeout_seconds, secret_context, signing_secrets
from hub.tableshape import columns

# The row a view is built from, in this order (the claim's one subscription query selects it).
VIEW_COLUMNS = columns(
    Subscription, "id", "tenant_id", "sink_kind", "endpoint", "timeout_ms", "enabled", "verification_state",
    "deleted_at", "secret_current", "secret_previous", "secret_overlap_until", "credential_sealed",
    "delegated_grant", "external_id", "custom_headers", "rate_limit_per_second", "payload_filter", "ordering")


@dataclass(frozen=True, slots=True)
class Destination:
    """Where a subscription's deliveries go: its sink kind and that kind's target (URL, queue, bus)."""

    kind: SinkKind
    target: str


@dataclass(frozen=True, slots=True)
class _Opened:
    """What a delivery signs and authenticates with, unsealed; ``problem`` says why it could not be."""

    signing_secrets: tuple[str, ...] = ()  # current first, then the previous one while the overlap lasts
    access: Access = NO_ACCESS
    headers: tuple[tuple[str, str], ...] = ()  # static headers (N54)
    problem: str = ""


_NOTHING_OPENED = _Opened()


@dataclass(frozen=True, slots=True)
class DeliveryView:
    """Everything the deliver path needs of one subscription, as of one claim."""

    id: uuid.UUID
    tenant_id: str
    destination: Destination
    timeout_seconds: float  # one try's limit
    signing_secrets: tuple[str, ...]  # unsealed: current first, then the previous one while the overlap lasts
    access: Access  # the unsealed credential or the grant a queue kind authenticates with
    headers: tuple[tuple[str, str], ...]  # static headers (N54), secret values unsealed
    rate_limit_per_second: int | None  # N56; None: no limit
    payload_filter: Mapping[str, Any] | None  # N53, as stored (ingest applies it when it fans out)
    ordering: OrderingPolicy | None  # N77; None: unordered
    deliverability: Deliverability
    problem: str  # why a delivery cannot be prepared although it may be sent ("" when it can)

    @property
    def deliverable(self) -> bool:
        return self.deliverability.ok


@lru_cache(maxsize=8192)
def _unsealed(envelope: str, context: str) -> str:
    return unseal(envelope, context=context).decode("ascii")


def delivery_view(row: Sequence[Any], now: datetime) -> DeliveryView:
    """The view of one :data:`VIEW_COLUMNS` row; ``now`` decides whether a rotated-out secret still signs."""
    (sub_id, tenant_id, kind, endpoint, timeout_ms, enabled, state, deleted_at, current, previous, overlap_until,
     credential_sealed, grant, external_id, custom_headers, rate_limit, payload_filter, ordering) = row
    standing = deliverability(deleted=deleted_at is not None, enabled=enabled, verification_state=state)
    provider = find_provider(kind)
    if provider is None:
        opened = _Opened(problem=f"the subscription's sink kind {kind!r} is not known")
    elif not standing.ok:  # nothing is sent: nothing to open
        opened = _NOTHING_OPENED
    else:
        try:
            secrets = signing_secrets(subscription_id=sub_id, current=current, previous=previous,
                                      overlap_until=overlap_until, now=now, opener=_unsealed) if provider.signs else ()
        except SecretsError:
            opened = _Opened(problem="the subscription's signing secret could not be opened")
        else:
            opened = _open_the_rest(provider, secrets, sub_id, (credential_sealed, grant, external_id), custom_headers)
    return DeliveryView(
        id=sub_id, tenant_id=tenant_id, destination=Destination(provider.kind if provider else kind, endpoint),
        timeout_seconds=attempt_timeout_seconds(timeout_ms), signing_secrets=opened.signing_secrets,
        access=opened.access, headers=opened.headers, rate_limit_per_second=rate_limit, payload_filter=payload_filter,
        ordering=ordering_policy(ordering), deliverability=standing, problem=opened.problem)


def _open_the_rest(provider: Provider, secrets: tuple[str, ...], sub_id: uuid.UUID,
                   stored: tuple[str | None, Mapping[str, Any] | None, str | None],
                   custom_headers: list[dict[str, Any]] | None) -> _Opened:
    """The credential or grant (``stored``: sealed credential, grant, ExternalId) and the static headers."""
    access = NO_ACCESS
    if provider.needs_access:
        context = secret_context(sub_id, "credential")
        credential_sealed, grant, external_id = stored
        try:
            access = stored_access(credential_sealed=credential_sealed, delegated_grant=grant, external_id=external_id,
                                   open_credential=lambda envelope: _unsealed(envelope, context))
        except (SecretsError, ValueError):
            return _Opened(problem="the subscription's credential could not be opened")
    try:
        headers = provider.delivery_headers(custom_headers, subscription_id=sub_id, opener=_unsealed)
    except SecretsError:
        return _Opened(problem="a static header of the subscription could not be opened")
    return _Opened(signing_secrets=secrets, access=access, headers=headers)

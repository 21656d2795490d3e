"""A subscription's delivery options (N67): the payload filter (N53), static headers (N54), rate
limit (N56) and ordering (N77), read and replaced as one set, stored on the subscription's own row.

The checks that need no row run first (``check_options``); the ones that depend on the row's kind
(headers on webhooks only, a rate limit on push kinds only, ordering on kinds that keep order) run once
the row is locked.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

from sqlmodel import Session

from hub.providers.webhook.headers import read_headers, seal_headers
from hub.providers.registry import provider_for
from hub.subscription import service
from hub.subscription.filter_check import check_filter
from hub.subscription.models import Subscription
from hub.subscription.options_schemas import DeliveryOptionsRequest
from hub.subscription.ordering_option import apply_ordering, check_ordering, ordering_for_kind
from hub.subscription.validation import check_rate_limit, plain_headers, rate_limit_for_kind
from hub.subscription.values import Caller
from hub.subscription.versions import bump_version


@dataclass(frozen=True)
class DeliveryOptionsValue:
    """A PUT body past the checks that need no row; the headers are not yet checked against the kind."""

    payload_filter: dict[str, Any] | None
    headers: list[dict[str, Any]] | None
    rate_limit_per_second: int | None
    ordering: dict[str, Any] | None


def check_options(body: DeliveryOptionsRequest) -> DeliveryOptionsValue:
    """The filter (every fault located), the rate limit's range and the ordering key's shape, in the
    body's field order (D1)."""
    return DeliveryOptionsValue(payload_filter=check_filter(body.filter), headers=plain_headers(body.headers),
                                rate_limit_per_second=check_rate_limit(body.rate_limit_per_second),
                                ordering=check_ordering(body.ordering))


def as_options(sub: Subscription) -> dict[str, Any]:
    """The ``DeliveryOptions`` read shape: every field present; a secret header without its value."""
    return {"filter": sub.payload_filter, "headers": read_headers(sub.custom_headers),
            "rate_limit_per_second": sub.rate_limit_per_second, "ordering": sub.ordering}


def replace_options(*, session: Session, caller: Caller, subscription_id: str,
                    options: DeliveryOptionsValue) -> Subscription:
    """Replace the caller's subscription's whole set (uniform 404 otherwise); bumps the version so
    ingest and the delivery workers reload it. Turning ordering off releases the waiting jobs here."""
    sub = service.get_subscription(session=session, caller=caller, subscription_id=subscription_id,
                                   for_update=True)
    headers = provider_for(sub.sink_kind).check_headers(options.headers)
    rate = rate_limit_for_kind(options.rate_limit_per_second, sub.sink_kind)
    ordering = ordering_for_kind(options.ordering, sub.sink_kind)
    sub.payload_filter = options.payload_filter
    sub.custom_headers = seal_headers(headers, sub.id)
    sub.rate_limit_per_second = rate
    apply_ordering(session, sub, ordering)
    sub.updated_at = datetime.now(UTC)
    session.add(sub)
    session.flush()
    bump_version(session)
    return sub

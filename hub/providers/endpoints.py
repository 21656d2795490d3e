"""A subscription's endpoint: shape checks, SSRF checks, and the short ``endpoint_display``.

The per-kind rules (R-createSubscription-11/12/33, docs/contract-notes.md N13) live in each kind's
provider (``hub.providers``); this module applies them to a request and turns a
refusal into a 422. Shapes: ``webhook`` an ``https://`` URL without userinfo (checked by the SSRF
guard, which reads the URL); ``sqs`` the ``https://`` queue URL ``/<12-digit account>/<queue>``;
``rabbitmq`` ``"<exchange>/<routing key>"`` (surrounding spaces are part of the key);
``eventbridge`` ``"<bus name>[/<detail-type>]"``; ``pull`` takes none, the hub writes
``pull://<subscription id>``.
"""

from __future__ import annotations

import unicodedata
import uuid

from hub.egress import InvalidDestination
from hub.errors import invalid
from hub.providers.base import EndpointShapeError
from hub.providers.pull.provider import PULL_SCHEME
from hub.providers.registry import find_provider, provider_for

MAX_ENDPOINT_LENGTH = 2048


def clean_text(value: str, location: str, *, max_length: int) -> str:
    """``value`` when it is storable text: no control characters, valid UTF-8, bounded length."""
    if len(value) > max_length:
        raise invalid(location, f"{location} is longer than {max_length} characters")
    try:
        value.encode("utf-8")
    except UnicodeEncodeError:
        raise invalid(location, f"{location} is not valid UTF-8 text") from None
    if any(unicodedata.category(char) == "Cc" for char in value):
        raise invalid(location, f"{location} contains control characters")
    return value


def pull_endpoint(subscription_id: uuid.UUID) -> str:
    return f"{PULL_SCHEME}{subscription_id}"


def check_shape(sink_kind: str, endpoint: str | None) -> str | None:
    """The endpoint to store (None for pull), or a 422 naming the refused ``endpoint``."""
    provider = provider_for(sink_kind)
    if not provider.takes_endpoint:
        if endpoint:
            raise invalid("endpoint", f"a {sink_kind} subscription takes no endpoint; the hub synthesizes it")
        return None
    if endpoint is None or not endpoint.strip():
        raise invalid("endpoint", f"a {sink_kind} subscription needs an endpoint")
    endpoint = clean_text(endpoint, "endpoint", max_length=MAX_ENDPOINT_LENGTH)
    if not provider.keeps_whitespace and endpoint != endpoint.strip():
        raise invalid("endpoint", "the endpoint has leading or trailing whitespace")
    if provider.names_destination_only and "://" in endpoint:
        # R-createSubscription-33: the broker host / AWS region live in the credential, never here.
        raise invalid("endpoint", f"a {sink_kind} endpoint names the destination only; connection details "
                                  "belong in PUT /v1/subscriptions/{id}/credential")
    try:
        provider.check_shape(endpoint)
    except EndpointShapeError as exc:
        raise invalid("endpoint", str(exc)) from None
    return endpoint


def check_reachable(sink_kind: str, endpoint: str | None) -> None:
    """The SSRF check of a destination the hub contacts (DNS included); no write is open yet."""
    provider = find_provider(sink_kind)
    if provider is None or endpoint is None:
        return
    try:
        provider.check_reachable(endpoint)
    except InvalidDestination as exc:
        raise invalid("endpoint", exc.detail) from exc


def endpoint_display(sink_kind: str, endpoint: str) -> str:
    """R-X-READ-02: scheme and host, queue / exchange / bus name, the pull value; "" if unparseable."""
    provider = find_provider(sink_kind)
    return provider.display(endpoint) if provider is not None else ""

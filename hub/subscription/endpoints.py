"""Destinations per sink kind: shape checks, SSRF checks, and the short ``endpoint_display``.

Shapes (R-createSubscription-11/12, decisions.md D13): ``webhook`` an ``https://`` URL without
userinfo; ``sqs`` the ``https://`` queue URL ``/<12-digit account>/<queue>``; ``rabbitmq``
``"<exchange>/<routing key>"`` (exchange required, routing key optional); ``eventbridge``
``"<bus name>[/<detail-type>]"``; ``pull`` has none, the hub writes ``pull://<id>``.
"""

from __future__ import annotations

import re
import unicodedata
import uuid
from urllib.parse import urlsplit

from hub.egress import InvalidDestination, check_https_url, check_webhook_url
from hub.subscription.errors import invalid

MAX_ENDPOINT_LENGTH = 2048
_EXCHANGE = re.compile(r"^[A-Za-z0-9._:-]{1,255}$")
_BUS = re.compile(r"^[A-Za-z0-9._-]{1,256}$")
_ACCOUNT = re.compile(r"^[0-9]{12}$")
_QUEUE = re.compile(r"^[A-Za-z0-9_-]{1,80}(\.fifo)?$")


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
    return f"pull://{subscription_id}"


def _sqs_shape(endpoint: str) -> None:
    parts = urlsplit(endpoint)
    segments = [segment for segment in parts.path.split("/") if segment]
    if parts.scheme.lower() != "https" or len(segments) != 2 or parts.query or parts.fragment:
        raise invalid("endpoint", "an sqs endpoint is the https:// queue URL /<account id>/<queue name>")
    if not _ACCOUNT.match(segments[0]) or not _QUEUE.match(segments[1]):
        raise invalid("endpoint", "an sqs endpoint is the https:// queue URL /<account id>/<queue name>")


def _rabbitmq_shape(endpoint: str) -> None:
    exchange, _, routing_key = endpoint.partition("/")
    if not _EXCHANGE.match(exchange):
        raise invalid("endpoint", 'a rabbitmq endpoint is "<exchange>/<routing key>" with a named exchange')
    if len(routing_key.encode("utf-8")) > 255:
        raise invalid("endpoint", "the routing key is longer than 255 bytes")


def _eventbridge_shape(endpoint: str) -> None:
    bus, _, detail_type = endpoint.partition("/")
    if not _BUS.match(bus) or len(detail_type) > 128:
        raise invalid("endpoint", 'an eventbridge endpoint is "<event bus name>[/<detail-type>]"')


def check_shape(sink_kind: str, endpoint: str | None) -> str | None:
    """The endpoint to store (None for pull), or a 422 naming the refused ``endpoint``."""
    if sink_kind == "pull":
        if endpoint:
            raise invalid("endpoint", "a pull subscription takes no endpoint; the hub synthesizes it")
        return None
    if endpoint is None or not endpoint.strip():
        raise invalid("endpoint", f"a {sink_kind} subscription needs an endpoint")
    endpoint = clean_text(endpoint, "endpoint", max_length=MAX_ENDPOINT_LENGTH)
    if sink_kind != "rabbitmq" and endpoint != endpoint.strip():
        raise invalid("endpoint", "the endpoint has leading or trailing whitespace")
    if sink_kind in ("rabbitmq", "eventbridge") and "://" in endpoint:
        # R-createSubscription-33: the broker host / AWS region live in the credential, never here.
        raise invalid("endpoint", f"a {sink_kind} endpoint names the destination only; connection details "
                                  "belong in PUT /v1/subscriptions/{id}/credential")
    {"sqs": _sqs_shape, "rabbitmq": _rabbitmq_shape, "eventbridge": _eventbridge_shape}.get(
        sink_kind, lambda _: None)(endpoint)
    return endpoint


def check_reachable(sink_kind: str, endpoint: str | None) -> None:
    """The SSRF check of a destination the hub contacts (DNS included); no write is open yet."""
    try:
        if sink_kind == "webhook" and endpoint is not None:
            check_webhook_url(endpoint)
        elif sink_kind == "sqs" and endpoint is not None:
            check_https_url(endpoint)
    except InvalidDestination as exc:
        raise invalid("endpoint", exc.detail) from exc


def _url_display(endpoint: str) -> str:
    parts = urlsplit(endpoint)
    host = parts.hostname
    if not parts.scheme or not host:
        return ""
    shown = f"[{host}]" if ":" in host else host
    if parts.port is not None and parts.port != 443:
        shown = f"{shown}:{parts.port}"
    return f"{parts.scheme.lower()}://{shown}"


def endpoint_display(sink_kind: str, endpoint: str) -> str:
    """R-X-READ-02: scheme and host, queue / exchange / bus name, the pull value; "" if unparseable."""
    try:
        if sink_kind == "webhook":
            return _url_display(endpoint)
        if sink_kind == "sqs":
            segments = [segment for segment in urlsplit(endpoint).path.split("/") if segment]
            return segments[-1] if segments else ""
        if sink_kind in ("rabbitmq", "eventbridge"):
            return endpoint.partition("/")[0]
        return endpoint if endpoint.startswith("pull://") else ""
    except ValueError:
        return ""

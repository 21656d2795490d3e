"""What the hub knows about each sink kind's destination: its shape, its SSRF check, its display.

One :class:`KindSpec` per :class:`~hub.sinks.vocabulary.SinkKind`, in :data:`KINDS`. The
subscription routes read it to validate ``endpoint`` (R-createSubscription-11/12/33), to check
the destination the hub will contact (the SSRF guard in ``hub/egress``) and to build
``endpoint_display`` (R-X-READ-02). A sink that needs more per-kind facts adds a field here
rather than another ``if sink_kind == ...`` elsewhere.

Shapes: ``webhook`` an ``https://`` URL without userinfo (checked by the SSRF guard, which reads
the URL); ``sqs`` the ``https://`` queue URL ``/<12-digit account>/<queue>``; ``rabbitmq``
``"<exchange>/<routing key>"`` (exchange required, routing key optional, surrounding spaces are
part of the key); ``eventbridge`` ``"<bus name>[/<detail-type>]"``; ``pull`` takes none, the hub
writes ``pull://<subscription id>``. See docs/contract-notes.md N13.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass
from enum import StrEnum
from urllib.parse import urlsplit

from hub.egress import check_https_url, check_webhook_url
from hub.sinks.vocabulary import SinkKind

_EXCHANGE = re.compile(r"^[A-Za-z0-9._:-]{1,255}$")
_BUS = re.compile(r"^[A-Za-z0-9._-]{1,256}$")
_ACCOUNT = re.compile(r"^[0-9]{12}$")
_QUEUE = re.compile(r"^[A-Za-z0-9_-]{1,80}(\.fifo)?$")
PULL_SCHEME = "pull://"


class EndpointShapeError(ValueError):
    """The endpoint is not the shape its sink kind needs; the message says which shape."""


class SsrfTarget(StrEnum):
    """Which host of the endpoint the SSRF guard checks before the subscription is stored."""

    url_host = "url_host"  # the endpoint is the URL the hub calls
    queue_url_host = "queue_url_host"  # the endpoint is an https:// queue URL (a custom endpoint)
    none = "none"  # the endpoint names a destination; the host comes from the credential


def _no_shape(_endpoint: str) -> None:
    """No shape beyond what every endpoint must be (the SSRF guard reads webhook URLs)."""


def _sqs_shape(endpoint: str) -> None:
    message = "an sqs endpoint is the https:// queue URL /<account id>/<queue name>"
    try:
        parts = urlsplit(endpoint)
    except ValueError:  # e.g. an unclosed IPv6 bracket
        raise EndpointShapeError(message) from None
    segments = [segment for segment in parts.path.split("/") if segment]
    if parts.scheme.lower() != "https" or len(segments) != 2 or parts.query or parts.fragment:
        raise EndpointShapeError(message)
    if not _ACCOUNT.match(segments[0]) or not _QUEUE.match(segments[1]):
        raise EndpointShapeError(message)


def _rabbitmq_shape(endpoint: str) -> None:
    exchange, _, routing_key = endpoint.partition("/")
    if not _EXCHANGE.match(exchange):
        raise EndpointShapeError('a rabbitmq endpoint is "<exchange>/<routing key>" with a named exchange')
    if len(routing_key.encode("utf-8")) > 255:
        raise EndpointShapeError("the routing key is longer than 255 bytes")


def _eventbridge_shape(endpoint: str) -> None:
    bus, _, detail_type = endpoint.partition("/")
    if not _BUS.match(bus) or len(detail_type) > 128:
        raise EndpointShapeError('an eventbridge endpoint is "<event bus name>[/<detail-type>]"')


def _url_display(endpoint: str) -> str:
    """Scheme and host (and a port other than 443), never the path or query."""
    parts = urlsplit(endpoint)
    host = parts.hostname
    if not parts.scheme or not host:
        return ""
    shown = f"[{host}]" if ":" in host else host
    if parts.port is not None and parts.port != 443:
        shown = f"{shown}:{parts.port}"
    return f"{parts.scheme.lower()}://{shown}"


def _queue_display(endpoint: str) -> str:
    """The queue name: the URL's last path segment."""
    segments = [segment for segment in urlsplit(endpoint).path.split("/") if segment]
    return segments[-1] if segments else ""


def _first_segment_display(endpoint: str) -> str:
    """The exchange or event bus name: what precedes the first ``/``."""
    return endpoint.partition("/")[0]


def _pull_display(endpoint: str) -> str:
    return endpoint if endpoint.startswith(PULL_SCHEME) else ""


@dataclass(frozen=True, slots=True)
class KindSpec:
    """One sink kind's destination rules."""

    kind: SinkKind
    takes_endpoint: bool  # False: the hub synthesizes it (pull)
    shape: Callable[[str], None]  # raises EndpointShapeError
    ssrf_target: SsrfTarget
    display_mask: Callable[[str], str]  # the endpoint_display of a stored endpoint
    keeps_whitespace: bool = False  # leading or trailing spaces are part of the destination
    names_destination_only: bool = False  # no "scheme://": connection details live in the credential

    def check_shape(self, endpoint: str) -> None:
        """Raise :class:`EndpointShapeError` unless ``endpoint`` has this kind's shape."""
        self.shape(endpoint)

    def check_reachable(self, endpoint: str) -> None:
        """The SSRF guard on the host the hub will contact; raises ``InvalidDestination``."""
        check = _SSRF_CHECKS.get(self.ssrf_target)
        if check is not None:
            check(endpoint)

    def display(self, endpoint: str) -> str:
        """The short ``endpoint_display``; "" when the stored endpoint cannot be parsed."""
        try:
            return self.display_mask(endpoint)
        except ValueError:
            return ""


_SSRF_CHECKS: dict[SsrfTarget, Callable[[str], object]] = {
    SsrfTarget.url_host: check_webhook_url,
    SsrfTarget.queue_url_host: check_https_url,
}

KINDS: dict[SinkKind, KindSpec] = {spec.kind: spec for spec in (
    KindSpec(SinkKind.webhook, True, _no_shape, SsrfTarget.url_host, _url_display),
    KindSpec(SinkKind.pull, False, _no_shape, SsrfTarget.none, _pull_display),
    KindSpec(SinkKind.sqs, True, _sqs_shape, SsrfTarget.queue_url_host, _queue_display),
    KindSpec(SinkKind.rabbitmq, True, _rabbitmq_shape, SsrfTarget.none, _first_segment_display,
             keeps_whitespace=True, names_destination_only=True),
    KindSpec(SinkKind.eventbridge, True, _eventbridge_shape, SsrfTarget.none, _first_segment_display,
             names_destination_only=True),
)}


def spec_for(sink_kind: str) -> KindSpec | None:
    """The spec of a stored or requested kind; None for a value that is not a kind."""
    try:
        return KINDS[SinkKind(sink_kind)]
    except ValueError:
        return None

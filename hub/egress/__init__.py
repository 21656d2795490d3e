"""SSRF defence for every destination the hub contacts (webhook URLs, SQS/AWS endpoints, broker hosts).

Check first, then connect only to what the check returned::

    destination = check_webhook_url(url)          # 422 / 503 / 504 domain errors
    with pinned_http_client(destination, timeout=5) as client:
        client.post(url, content=body, headers=headers)

The delivery path is asynchronous and pooled: ``checked_session`` (hub.egress.aio) is an aiohttp session
whose every new connection is checked at that moment by ``CheckedResolver``; the sync client above is for
one-off requests.

Non-HTTP clients (e.g. a RabbitMQ broker) should connect to ``destination.addresses[0]`` and pass
``destination.host`` as the TLS server name, for the same reason.
"""

from hub.egress.aio import CheckedResolver, EgressRefused, check_literal, checked_session
from hub.egress.addresses import allow_list, blocked_reason, embedded_ipv4, inet_aton, is_blocked_address
from hub.egress.check import ResolvedDestination, check_host, check_https_url, check_webhook_url
from hub.egress.client import PinnedHostMismatch, PinnedTransport, pinned_http_client, post_pinned
from hub.egress.errors import DnsTimeout, DnsUnavailable, EgressConfigError, EndpointBlocked, InvalidDestination
from hub.egress.resolve import validate_dns_settings


def validate_egress_settings() -> None:
    """Raise EgressConfigError (naming the setting, not its value) if an egress setting is malformed."""
    allow_list()
    validate_dns_settings()


__all__ = [
    "CheckedResolver", "DnsTimeout", "DnsUnavailable", "EgressRefused", "check_literal", "checked_session", "EgressConfigError", "EndpointBlocked", "InvalidDestination",
    "PinnedHostMismatch", "PinnedTransport", "ResolvedDestination", "blocked_reason", "check_host",
    "check_https_url", "check_webhook_url", "embedded_ipv4", "inet_aton", "is_blocked_address",
    "pinned_http_client", "post_pinned", "validate_egress_settings",
]

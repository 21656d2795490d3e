"""SSRF defence for every destination the hub contacts (webhook URLs, SQS/AWS endpoints, broker hosts).

Check first, then connect only to what the check returned. ``check_webhook_url`` and ``check_https_url``
refuse a destination when it is written (422 / 503 / 504 domain errors). Webhook requests, deliveries and
pings alike, go through ``PinnedClients`` (hub.egress.pinned): clients of the compiled HTTP client pinned to
an address the check returned (hub.egress.pins says when a name is checked again), so a name that rebinds
to a blocked address is never reached there and is refused when checked again (N79). ``checked_session``
(hub.egress.aio) is the same guard for an aiohttp session: every new connection checked by ``CheckedResolver``.

Non-HTTP clients (e.g. a RabbitMQ broker) should connect to ``destination.addresses[0]`` and pass
``destination.host`` as the TLS server name, for the same reason.
"""

from hub.egress.aio import CheckedResolver, checked_session
from hub.egress.addresses import allow_list, blocked_reason, embedded_ipv4, inet_aton, is_blocked_address
from hub.egress.check import ResolvedDestination, check_host, check_https_url, check_webhook_url
from hub.egress.errors import DnsTimeout, DnsUnavailable, EgressConfigError, EndpointBlocked, InvalidDestination
from hub.egress.refusal import EgressRefused, check_literal
from hub.egress.resolve import validate_dns_settings


def validate_egress_settings() -> None:
    """Raise EgressConfigError (naming the setting, not its value) if an egress setting is malformed."""
    allow_list()
    validate_dns_settings()


__all__ = [
    "CheckedResolver", "DnsTimeout", "DnsUnavailable", "EgressRefused", "check_literal", "checked_session", "EgressConfigError", "EndpointBlocked", "InvalidDestination",
    "ResolvedDestination", "blocked_reason", "check_host",
    "check_https_url", "check_webhook_url", "embedded_ipv4", "inet_aton", "is_blocked_address",
    "validate_egress_settings",
]

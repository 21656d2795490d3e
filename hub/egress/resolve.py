"""Name resolution for destination checks: A and AAAA within one deadline, failures as domain errors."""

from __future__ import annotations

import ipaddress
import time
from functools import lru_cache
from urllib.parse import urlsplit

import dns.exception
import dns.name
import dns.nameserver
import dns.resolver

from hub.config import get_settings
from hub.egress.addresses import IPAddress
from hub.egress.errors import DnsTimeout, DnsUnavailable, EgressConfigError


def _nameserver(entry: str, index: int) -> dns.nameserver.Do53Nameserver:
    """One ``dns_nameservers`` entry: ``addr``, ``addr:port``, ``v6`` or ``[v6]:port``."""
    try:
        try:
            host, port = str(ipaddress.ip_address(entry)), 53
        except ValueError:
            parts = urlsplit(f"//{entry}")
            host, port = str(ipaddress.ip_address(parts.hostname or "")), parts.port or 53
    except ValueError:
        raise EgressConfigError(
            f"HUB_DNS_NAMESERVERS entry {index} is not an address[:port] (expected e.g. 127.0.0.1:5353)"
        ) from None
    return dns.nameserver.Do53Nameserver(host, port)


@lru_cache(maxsize=8)
def _resolver(nameservers: tuple[str, ...]) -> dns.resolver.Resolver:
    if not nameservers:
        try:
            return dns.resolver.Resolver(configure=True)
        except dns.exception.DNSException:
            raise DnsUnavailable("the system has no usable resolver configuration") from None
    resolver = dns.resolver.Resolver(configure=False)
    resolver.nameservers = [_nameserver(entry, i) for i, entry in enumerate(nameservers, start=1)]
    return resolver


def _query(resolver: dns.resolver.Resolver, name: dns.name.Name, rdtype: str, deadline: float) -> list[IPAddress]:
    remaining = deadline - time.monotonic()
    if remaining <= 0:
        raise DnsTimeout()
    try:
        answer = resolver.resolve(name, rdtype, lifetime=remaining, search=False, raise_on_no_answer=False)
    except dns.resolver.NXDOMAIN:
        raise DnsUnavailable("the destination host name does not exist") from None
    except dns.exception.Timeout:
        raise DnsTimeout() from None
    except dns.exception.DNSException:
        # NoNameservers (SERVFAIL/REFUSED everywhere), YXDOMAIN, malformed answers: all "lookup failed".
        raise DnsUnavailable() from None
    if answer.rrset is None:
        return []
    return [ipaddress.ip_address(record.address) for record in answer.rrset]


def resolve_host(host: str) -> tuple[IPAddress, ...]:
    """All A then AAAA addresses of ``host`` (an ASCII name), looked up within ``dns_timeout_seconds``.

    Raises DnsUnavailable (NXDOMAIN, SERVFAIL, no addresses) or DnsTimeout. Uses ``dns_nameservers`` when set,
    the system's resolv.conf otherwise; search domains are not applied (a destination must be a full name).
    """
    settings = get_settings()
    timeout = settings.dns_timeout_seconds
    resolver = _resolver(tuple(settings.dns_nameservers))
    try:
        name = dns.name.from_text(host)
    except dns.exception.DNSException:
        raise DnsUnavailable("the destination host name cannot be looked up") from None
    deadline = time.monotonic() + timeout
    found = _query(resolver, name, "A", deadline) + _query(resolver, name, "AAAA", deadline)
    if not found:
        raise DnsUnavailable("the destination host name has no addresses")
    return tuple(dict.fromkeys(found))


def validate_dns_settings() -> None:
    """Raise EgressConfigError now if ``dns_nameservers`` is malformed (for start-up checks)."""
    entries = get_settings().dns_nameservers
    for index, entry in enumerate(entries, start=1):
        _nameserver(entry, index)

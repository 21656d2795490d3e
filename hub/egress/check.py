"""Destination checks: parse, normalise, resolve and refuse anything the hub must not contact."""

from __future__ import annotations

import ipaddress
import re
from dataclasses import dataclass
from urllib.parse import urlsplit

import httpx
import idna

from hub.egress.addresses import IPAddress, blocked_reason, inet_aton, looks_numeric
from hub.egress.errors import EndpointBlocked, InvalidDestination
from hub.egress.resolve import resolve_host

MAX_URL_LENGTH = 2048
_LABEL = re.compile(r"^[a-z0-9_]([a-z0-9_-]{0,61}[a-z0-9_])?$")
# Characters that parsers disagree about (whitespace, controls, backslash) never belong in a destination.
_AMBIGUOUS = re.compile(r"[\x00-\x20\x7f\\]")


@dataclass(frozen=True)
class ResolvedDestination:
    """A destination that passed the check; connect only to ``addresses`` (see hub.egress.aio)."""

    host: str  # ASCII, lowercased; canonical form for IP literals and numeric spellings
    port: int
    addresses: tuple[IPAddress, ...]  # every one checked and allowed; IPv4 first


def _refuse_blocked(addresses: tuple[IPAddress, ...]) -> None:
    for address in addresses:
        reason = blocked_reason(address)
        if reason:
            raise EndpointBlocked(f"the destination resolves to a blocked address ({reason})")


def _literal(host: str) -> IPAddress | None:
    """The IP address ``host`` spells (IPv6 with or without brackets, any inet_aton IPv4 form), or None."""
    inner = host[1:-1] if host.startswith("[") and host.endswith("]") else host
    if ":" in inner:
        if "%" in inner:
            raise InvalidDestination("IPv6 zone identifiers are not accepted in a destination")
        try:
            return ipaddress.IPv6Address(inner)
        except ValueError:
            raise InvalidDestination("the destination host is not a valid IPv6 address") from None
    if looks_numeric(host):
        address = inet_aton(host)
        if address is None:
            # A resolver could still read a number-ish name as an address; never let one through.
            raise EndpointBlocked("the destination host is a numeric form that is not a valid address")
        return address
    return None


def _to_ascii(host: str) -> str:
    try:
        return host.lower() if host.isascii() else idna.encode(host, uts46=True).decode("ascii")
    except idna.IDNAError:
        raise InvalidDestination("the destination host is not a valid host name") from None


def _ascii_name(host: str) -> str:
    """``host`` as a lowercased IDNA (punycode) DNS name, validated label by label."""
    name = _to_ascii(host)
    labels = name.removesuffix(".").split(".")
    if len(name) > 253 or not all(_LABEL.match(label) for label in labels):
        raise InvalidDestination("the destination host is not a valid host name")
    return name


def canonical_host(host: str) -> tuple[str, IPAddress | None]:
    """The form a destination host is compared and stored in, and the address it spells if it is a literal."""
    host = (host or "").strip().lower()
    if not host or _AMBIGUOUS.search(host) or "@" in host or "/" in host:
        raise InvalidDestination("the destination host is missing or malformed")
    literal = _literal(host)
    if literal is not None:
        return str(literal), literal
    return _ascii_name(host), None


def check_host(host: str, port: int) -> ResolvedDestination:
    """Check a bare host (e.g. a RabbitMQ broker or an AWS endpoint host) and resolve it.

    Raises InvalidDestination, EndpointBlocked, DnsUnavailable or DnsTimeout.
    """
    if not isinstance(port, int) or isinstance(port, bool) or not 0 < port < 65536:
        raise InvalidDestination("the destination port must be between 1 and 65535")
    host, literal = canonical_host(host)
    if literal is not None:
        addresses: tuple[IPAddress, ...] = (literal,)
    else:
        if host.removesuffix(".") == "localhost" or host.removesuffix(".").endswith(".localhost"):
            raise EndpointBlocked("the destination resolves to a blocked address (loopback)")
        addresses = tuple(sorted(resolve_host(host), key=lambda address: address.version))
    _refuse_blocked(addresses)
    return ResolvedDestination(host=host, port=port, addresses=addresses)


def _split_https_url(url: str) -> tuple[str, int]:
    """The (host, port) of an ``https://`` URL without userinfo; both parsers must agree on the host."""
    if not isinstance(url, str) or not url or len(url) > MAX_URL_LENGTH or _AMBIGUOUS.search(url):
        raise InvalidDestination("the destination must be an https:// URL")
    try:
        parts = urlsplit(url)
        split_host, split_port = parts.hostname, parts.port
    except ValueError:
        raise InvalidDestination("the destination is not a valid URL") from None
    try:
        parsed = httpx.URL(url)
    except httpx.InvalidURL:
        if split_host and looks_numeric(split_host):
            # An octal dotted quad that httpx refuses is still reported as blocked when it is.
            _refuse_blocked((canonical_host(split_host)[1],))
        raise InvalidDestination("the destination is not a valid URL") from None
    if parts.scheme.lower() != "https" or parsed.scheme != "https":
        raise InvalidDestination("the destination must use https://")
    if "@" in parts.netloc or parsed.userinfo:
        raise InvalidDestination("the destination must not carry user information")
    host = parsed.raw_host.decode("ascii").lower()
    if not host or not split_host:
        raise InvalidDestination("the destination URL has no host")
    if _to_ascii(split_host) != _to_ascii(host) or (split_port or 443) != (parsed.port or 443):
        raise InvalidDestination("the destination URL is ambiguous")
    return host, parsed.port if parsed.port is not None else 443


def check_https_url(url: str) -> ResolvedDestination:
    """Check an ``https://`` URL (no userinfo; port 443 unless given) and resolve its host.

    Raises InvalidDestination, EndpointBlocked, DnsUnavailable or DnsTimeout.
    """
    host, port = _split_https_url(url)
    return check_host(host, port)


def check_webhook_url(url: str) -> ResolvedDestination:
    """Check a webhook endpoint: the https URL rules of :func:`check_https_url`."""
    return check_https_url(url)

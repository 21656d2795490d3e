"""Which IP addresses the hub may contact, and how numeric host spellings map to addresses.

The tables are explicit on purpose: ``ipaddress.is_global``/``is_private`` disagree with the special-purpose
registries for several ranges on Python 3.11 (e.g. 192.0.0.0/24 sub-blocks, 64:ff9b:1::/48, 2001::/23).
"""

from __future__ import annotations

import ipaddress
import re
from functools import lru_cache

from hub.config import get_settings
from hub.egress.errors import EgressConfigError

IPAddress = ipaddress.IPv4Address | ipaddress.IPv6Address
IPNetwork = ipaddress.IPv4Network | ipaddress.IPv6Network

_V4_TABLE: tuple[tuple[str, str], ...] = (
    ("0.0.0.0/8", "unspecified"),
    ("10.0.0.0/8", "private"),
    ("100.64.0.0/10", "shared address space (CGNAT)"),
    ("127.0.0.0/8", "loopback"),
    ("169.254.0.0/16", "link-local (cloud metadata)"),
    ("172.16.0.0/12", "private"),
    ("192.0.0.0/24", "IETF protocol assignments"),
    ("192.0.2.0/24", "documentation"),
    ("192.88.99.0/24", "6to4 relay anycast"),
    ("192.168.0.0/16", "private"),
    ("198.18.0.0/15", "benchmarking"),
    ("198.51.100.0/24", "documentation"),
    ("203.0.113.0/24", "documentation"),
    ("224.0.0.0/4", "multicast"),
    ("255.255.255.255/32", "broadcast"),
    ("240.0.0.0/4", "reserved"),
)

_V6_TABLE: tuple[tuple[str, str], ...] = (
    ("::/128", "unspecified"),
    ("::1/128", "loopback"),
    ("64:ff9b:1::/48", "NAT64 local-use"),
    ("100::/64", "discard-only"),
    ("2001:2::/48", "benchmarking"),
    ("2001:10::/28", "ORCHID"),
    ("2001:20::/28", "ORCHIDv2"),
    ("2001:db8::/32", "documentation"),
    ("3fff::/20", "documentation"),
    ("fc00::/7", "unique local"),
    ("fe80::/10", "link-local"),
    ("fec0::/10", "site-local"),
    ("ff00::/8", "multicast"),
)

V4_BLOCKED: tuple[tuple[ipaddress.IPv4Network, str], ...] = tuple(
    (ipaddress.IPv4Network(cidr), reason) for cidr, reason in _V4_TABLE
)
V6_BLOCKED: tuple[tuple[ipaddress.IPv6Network, str], ...] = tuple(
    (ipaddress.IPv6Network(cidr), reason) for cidr, reason in _V6_TABLE
)

# IPv6 prefixes whose low 32 bits carry an IPv4 address the packet really goes to.
_V4_IN_LOW_BITS = tuple(ipaddress.IPv6Network(cidr) for cidr in (
    "::ffff:0:0/96",    # IPv4-mapped
    "::ffff:0:0:0/96",  # IPv4-translated (SIIT)
    "64:ff9b::/96",     # NAT64 well-known prefix
    "::/96",            # IPv4-compatible (deprecated)
))
_GLOBAL_UNICAST = ipaddress.IPv6Network("2000::/3")


def embedded_ipv4(address: ipaddress.IPv6Address) -> tuple[ipaddress.IPv4Address, ...]:
    """Every IPv4 address that ``address`` embeds (mapped, compatible, NAT64, 6to4, Teredo)."""
    for network in _V4_IN_LOW_BITS:
        if address in network:
            return (ipaddress.IPv4Address(int(address) & 0xFFFFFFFF),)
    if address.sixtofour is not None:
        return (address.sixtofour,)
    if address.teredo is not None:
        return address.teredo
    return ()


@lru_cache(maxsize=8)
def _parse_allow_list(entries: tuple[str, ...]) -> tuple[IPNetwork, ...]:
    networks = []
    for index, entry in enumerate(entries, start=1):
        try:
            networks.append(ipaddress.ip_network(entry, strict=False))
        except ValueError:
            raise EgressConfigError(
                f"HUB_EGRESS_ALLOW_CIDRS entry {index} is not a CIDR (expected e.g. 127.0.0.0/8)"
            ) from None
    return tuple(networks)


def allow_list() -> tuple[IPNetwork, ...]:
    """The parsed ``egress_allow_cidrs`` setting (raises EgressConfigError naming it if malformed)."""
    return _parse_allow_list(tuple(get_settings().egress_allow_cidrs))


def _allowed_explicitly(address: IPAddress) -> bool:
    return any(address.version == net.version and address in net for net in allow_list())


def blocked_reason(address: IPAddress) -> str | None:
    """Why ``address`` is refused (a short category), or None when the hub may contact it."""
    if _allowed_explicitly(address):
        return None
    if isinstance(address, ipaddress.IPv4Address):
        return next((reason for net, reason in V4_BLOCKED if address in net), None)
    if address.scope_id:
        return "scoped IPv6"
    for net, reason in V6_BLOCKED[:2]:  # :: and ::1 also sit inside ::/96; name them for what they are
        if address in net:
            return reason
    for inner in embedded_ipv4(address):
        reason = blocked_reason(inner)
        if reason:
            return f"{reason} (embedded in IPv6)"
    if any(address in net for net in _V4_IN_LOW_BITS):
        return None
    reason = next((reason for net, reason in V6_BLOCKED if address in net), None)
    if reason is None and address not in _GLOBAL_UNICAST:
        reason = "reserved"
    return reason


def is_blocked_address(address: IPAddress | str) -> bool:
    """True when the hub must not contact ``address``; honours ``settings.egress_allow_cidrs``."""
    if isinstance(address, str):
        address = ipaddress.ip_address(address)
    return blocked_reason(address) is not None


_NUMERIC_LABEL = re.compile(r"^(0x[0-9a-f]*|[0-9]+)$")
_PART = re.compile(r"^(0x[0-9a-f]*|0[0-7]*|[1-9][0-9]*)$")


def looks_numeric(host: str) -> bool:
    """True when the last label of ``host`` is a number, so resolvers would read it as an IPv4 address."""
    labels = host.lower().removesuffix(".").split(".")
    return bool(_NUMERIC_LABEL.match(labels[-1]))


def _part_value(part: str) -> int:
    if part.startswith("0x"):
        return int(part[2:] or "0", 16)  # glibc reads a bare "0x" as 0
    return int(part, 8) if part.startswith("0") else int(part)


def inet_aton(host: str) -> ipaddress.IPv4Address | None:
    """``host`` read the way libc's inet_aton reads it (1–4 parts, decimal/octal/hex), or None.

    ``127.1``, ``0177.0.0.1``, ``0x7f.1`` and ``2130706433`` all give 127.0.0.1. A single trailing dot is
    tolerated because URL parsers and some resolvers drop it.
    """
    parts = host.lower().removesuffix(".").split(".")
    if not 1 <= len(parts) <= 4 or not all(_PART.match(part) for part in parts):
        return None
    values = [_part_value(part) for part in parts]
    last_bits = 8 * (5 - len(values))
    if any(value > 0xFF for value in values[:-1]) or values[-1] >= 1 << last_bits:
        return None
    number = 0
    for value in values[:-1]:
        number = number << 8 | value
    return ipaddress.IPv4Address(number << last_bits | values[-1])

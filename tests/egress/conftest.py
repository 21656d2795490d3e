"""Egress fixtures: a real loopback DNS server the resolver is pointed at through ``dns_nameservers``."""

from __future__ import annotations

from collections.abc import Callable, Iterator

import pytest

from devkit.dnsserver import DnsServer, Entry, dns_server

ZONE: dict[str, Entry] = {
    "public.example.test": [("A", "93.184.216.34"), ("AAAA", "2606:4700::1111")],
    "v6only.example.test": [("AAAA", "2606:4700::1111")],
    "private.example.test": [("A", "10.0.0.1")],
    "mapped.example.test": [("AAAA", "::ffff:127.0.0.1")],
    "metadata.example.test": [("A", "169.254.169.254")],
    "ec2v6.example.test": [("AAAA", "fd00:ec2::254")],
    "mixed.example.test": [("A", "93.184.216.34"), ("A", "192.168.1.7")],
    "mixed6.example.test": [("A", "93.184.216.34"), ("AAAA", "fe80::1")],
    "loopback.example.test": [("A", "127.0.0.1")],
    "empty.example.test": [],
    "servfail.example.test": "SERVFAIL",
    "refused.example.test": "REFUSED",
    "nx.example.test": "NXDOMAIN",
    "slow.example.test": "DROP",
}


@pytest.fixture
def zone_dns(override_settings: Callable[..., None]) -> Iterator[DnsServer]:
    """A loopback DNS server serving ZONE; the hub resolves through it with a short timeout."""
    with dns_server(ZONE) as server:
        override_settings(dns_nameservers=server.address, dns_timeout_seconds=0.5)
        yield server


@pytest.fixture
def silent_dns(override_settings: Callable[..., None]) -> Iterator[DnsServer]:
    """A loopback DNS server that never answers."""
    with dns_server(silent=True) as server:
        override_settings(dns_nameservers=server.address, dns_timeout_seconds=0.5)
        yield server


@pytest.fixture(scope="session", autouse=True)
def migrated_database() -> None:
    """Destination checks never touch PostgreSQL, so these tests skip the shared migration step."""

"""Name resolution against a real DNS server on loopback: failures, timeouts and names that resolve badly."""

from __future__ import annotations

import ipaddress

import pytest

from hub.egress import (
    DnsTimeout,
    DnsUnavailable,
    EgressConfigError,
    EndpointBlocked,
    check_host,
    check_webhook_url,
    validate_egress_settings,
)
from devkit.dnsserver import DnsServer


def test_public_name_resolves_to_every_address_ipv4_first(zone_dns: DnsServer) -> None:
    destination = check_webhook_url("https://Public.Example.TEST/hooks/1")
    assert destination.host == "public.example.test" and destination.port == 443
    assert destination.addresses == (ipaddress.ip_address("93.184.216.34"), ipaddress.ip_address("2606:4700::1111"))
    assert {("public.example.test", "A"), ("public.example.test", "AAAA")} <= set(zone_dns.queries)


def test_ipv6_only_name_is_accepted(zone_dns: DnsServer) -> None:
    assert check_host("v6only.example.test", 5671).addresses == (ipaddress.ip_address("2606:4700::1111"),)


@pytest.mark.parametrize("name", ["private.example.test", "mapped.example.test", "metadata.example.test",
                                  "ec2v6.example.test", "loopback.example.test"])
def test_name_resolving_to_a_blocked_address_is_refused_R_createSubscription_13(zone_dns: DnsServer,
                                                                               name: str) -> None:
    """R-createSubscription-13: A 10.0.0.1, AAAA ::ffff:127.0.0.1, 169.254.169.254, fd00:ec2::254 → blocked."""
    with pytest.raises(EndpointBlocked) as caught:
        check_webhook_url(f"https://{name}/hook")
    assert caught.value.status == 422 and caught.value.code == "endpoint_blocked"
    assert "10.0.0.1" not in caught.value.detail and name not in caught.value.detail


@pytest.mark.parametrize("name", ["mixed.example.test", "mixed6.example.test"])
def test_one_blocked_address_among_public_ones_blocks_the_name(zone_dns: DnsServer, name: str) -> None:
    """Every resolved address must be allowed: a public A plus a private A (or link-local AAAA) is refused."""
    with pytest.raises(EndpointBlocked):
        check_host(name, 443)


@pytest.mark.parametrize("name", ["nx.example.test", "servfail.example.test", "refused.example.test",
                                  "empty.example.test", "unknown.example.test"])
def test_resolution_failure_is_dns_unavailable_R_createSubscription_31(zone_dns: DnsServer, name: str) -> None:
    """R-createSubscription-31/32: NXDOMAIN, SERVFAIL, REFUSED or no addresses → 503 dns_unavailable + Retry-After."""
    with pytest.raises(DnsUnavailable) as caught:
        check_webhook_url(f"https://{name}/")
    assert caught.value.status == 503 and caught.value.code == "dns_unavailable"
    assert int(caught.value.headers["Retry-After"]) >= 1
    assert zone_dns.count(name) >= 1


@pytest.mark.timeout(20)  # a lookup that hangs instead of giving up at dns_timeout_seconds fails here
def test_unanswered_lookup_is_dns_timeout_R_createSubscription_31(silent_dns: DnsServer) -> None:
    """R-createSubscription-31/32: a DNS server that never answers → 504 dns_timeout, no Retry-After."""
    with pytest.raises(DnsTimeout) as caught:
        check_webhook_url("https://hooks.example.test/")
    assert caught.value.status == 504 and caught.value.code == "dns_timeout"
    assert "Retry-After" not in caught.value.headers
    assert silent_dns.queries, "the query must have reached the silent server"


def test_a_dropped_name_times_out_even_on_an_answering_server(zone_dns: DnsServer) -> None:
    with pytest.raises(DnsTimeout):
        check_host("slow.example.test", 443)


def test_allow_list_admits_names_resolving_to_listed_ranges(zone_dns: DnsServer, override_settings) -> None:
    override_settings(egress_allow_cidrs="127.0.0.0/8,10.0.0.0/8")
    assert check_host("loopback.example.test", 8443).addresses == (ipaddress.ip_address("127.0.0.1"),)
    assert check_host("mapped.example.test", 8443).addresses == (ipaddress.ip_address("::ffff:127.0.0.1"),)
    assert check_host("private.example.test", 8443).addresses == (ipaddress.ip_address("10.0.0.1"),)
    with pytest.raises(EndpointBlocked):
        check_host("metadata.example.test", 443)


def test_literal_hosts_never_query_dns(zone_dns: DnsServer) -> None:
    check_host("93.184.216.34", 443)
    with pytest.raises(EndpointBlocked):
        check_host("0x7f.1", 443)
    with pytest.raises(EndpointBlocked):
        check_host("localhost", 443)
    assert zone_dns.queries == []


def test_malformed_nameserver_setting_names_the_setting(override_settings) -> None:
    override_settings(dns_nameservers="not-an-address:53")
    with pytest.raises(EgressConfigError, match="HUB_DNS_NAMESERVERS entry 1") as caught:
        check_host("public.example.test", 443)
    assert "not-an-address" not in str(caught.value)
    with pytest.raises(EgressConfigError, match="HUB_DNS_NAMESERVERS"):
        validate_egress_settings()

"""The address policy: every blocked range, embedded-IPv4 forms, numeric spellings and the allow-list.

R-createSubscription-13, R-putSubscriptionCredential-09, R-putSubscriptionDelegatedGrant-04: a destination
that is (or resolves to) a blocked, private or metadata address is refused with 422 endpoint_blocked.
"""

from __future__ import annotations

import ipaddress

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from hub.egress import EndpointBlocked, check_host, inet_aton, is_blocked_address

# The policy, written out independently of hub.egress so the tests can disagree with the code.
SPEC_V4 = [
    "0.0.0.0/8", "10.0.0.0/8", "100.64.0.0/10", "127.0.0.0/8", "169.254.0.0/16", "172.16.0.0/12",
    "192.0.0.0/24", "192.0.2.0/24", "192.88.99.0/24", "192.168.0.0/16", "198.18.0.0/15",
    "198.51.100.0/24", "203.0.113.0/24", "224.0.0.0/4", "240.0.0.0/4",
]
SPEC_V6 = [
    "::/128", "::1/128", "fc00::/7", "fe80::/10", "fec0::/10", "ff00::/8", "2001:db8::/32",
    "64:ff9b:1::/48", "100::/64", "2001:2::/48", "2001:10::/28", "2001:20::/28", "3fff::/20",
]
V4_NETS = [ipaddress.IPv4Network(n) for n in SPEC_V4]
V6_NETS = [ipaddress.IPv6Network(n) for n in SPEC_V6]

BLOCKED = [
    "127.0.0.1", "127.255.255.254", "10.0.0.1", "172.16.0.1", "172.31.255.255", "192.168.1.1",
    "169.254.169.254", "169.254.0.1", "100.64.0.1", "100.127.255.254", "224.0.0.1", "239.255.255.250",
    "0.0.0.0", "0.1.2.3", "240.0.0.1", "255.255.255.255", "198.18.0.1", "198.19.255.255", "192.0.2.1",
    "198.51.100.7", "203.0.113.9", "192.0.0.8", "192.0.0.170",
    "::1", "::", "fd00:ec2::254", "fc00::1", "fe80::1", "febf::1", "fec0::1", "ff02::1", "ff0e::1",
    "2001:db8::1", "2001:db8:ffff::1",
    "::ffff:127.0.0.1", "::ffff:10.0.0.1", "::ffff:169.254.169.254", "::ffff:0:7f00:1",
    "::127.0.0.1", "::10.0.0.1", "64:ff9b::127.0.0.1", "64:ff9b::a9fe:a9fe", "64:ff9b:1::a00:1",
    "2002:7f00:1::", "2002:a00:1::1", "2002:a9fe:a9fe::",
    "2001:0:4136:e378:8000:63bf:80ff:fffe",  # Teredo client 127.0.0.1 (obfuscated)
    "2001:0:7f00:1::",  # Teredo server 127.0.0.1
    "5f00::1", "1::1",  # outside global unicast 2000::/3
]
ALLOWED = ["93.184.216.34", "8.8.8.8", "1.1.1.1", "2606:4700::1111", "2a00:1450:4001::200e",
           "::ffff:93.184.216.34", "64:ff9b::808:808", "2002:5db8:d822::1", "172.32.0.1", "100.128.0.1",
           "198.20.0.1", "11.0.0.1", "192.0.3.1"]


@pytest.mark.parametrize("address", BLOCKED)
def test_blocked_addresses_are_refused_R_createSubscription_13(address: str) -> None:
    """R-createSubscription-13: each blocked/private/metadata range (and embedded forms) is refused."""
    assert is_blocked_address(ipaddress.ip_address(address))
    with pytest.raises(EndpointBlocked) as caught:
        check_host(address, 443)
    assert caught.value.status == 422 and caught.value.code == "endpoint_blocked"


@pytest.mark.parametrize("address", ALLOWED)
def test_public_addresses_pass(address: str) -> None:
    assert not is_blocked_address(ipaddress.ip_address(address))
    destination = check_host(address, 8443)
    assert destination.addresses == (ipaddress.ip_address(address),) and destination.port == 8443


@settings(max_examples=300, deadline=None)
@given(st.integers(min_value=0, max_value=2**32 - 1))
def test_any_ipv4_is_blocked_exactly_when_in_a_blocked_network(number: int) -> None:
    address = ipaddress.IPv4Address(number)
    assert is_blocked_address(address) == any(address in net for net in V4_NETS)


@st.composite
def blocked_v4(draw: st.DrawFn) -> ipaddress.IPv4Address:
    net = draw(st.sampled_from(V4_NETS))
    return net[draw(st.integers(min_value=0, max_value=net.num_addresses - 1))]


@st.composite
def blocked_v6(draw: st.DrawFn) -> ipaddress.IPv6Address:
    net = draw(st.sampled_from(V6_NETS))
    return net[draw(st.integers(min_value=0, max_value=net.num_addresses - 1))]


@settings(max_examples=200, deadline=None)
@given(blocked_v6())
def test_any_address_in_a_blocked_ipv6_network_is_blocked(address: ipaddress.IPv6Address) -> None:
    assert is_blocked_address(address)


@settings(max_examples=200, deadline=None)
@given(blocked_v4(), st.sampled_from(["mapped", "translated", "compatible", "nat64", "6to4", "teredo"]))
def test_any_ipv6_form_embedding_a_blocked_ipv4_is_blocked(v4: ipaddress.IPv4Address, form: str) -> None:
    """IPv4-mapped/-compatible/-translated, NAT64, 6to4 and Teredo forms of a blocked IPv4 are blocked."""
    n = int(v4)
    embedded = {
        "mapped": 0xFFFF << 32 | n,
        "translated": 0xFFFF << 48 | n,
        "compatible": n,
        "nat64": 0x0064FF9B << 96 | n,
        "6to4": 0x2002 << 112 | n << 80 | 1,
        "teredo": 0x20010000 << 96 | 0x41 << 64 | (n ^ 0xFFFFFFFF),  # client address, obfuscated
    }[form]
    address = ipaddress.IPv6Address(embedded)
    assert is_blocked_address(address)
    with pytest.raises(EndpointBlocked):
        check_host(f"[{address}]", 443)


def _spellings(v4: ipaddress.IPv4Address) -> list[str]:
    a, b, c, d = v4.packed
    n = int(v4)
    return [
        str(n), hex(n), f"0{n:o}", f"{a}.{b << 16 | c << 8 | d}", f"{a}.{b}.{c << 8 | d}",
        f"0{a:o}.0{b:o}.0{c:o}.0{d:o}", f"{a:#x}.{b:#x}.{c:#x}.{d:#x}", f"{a:#X}.{b}.{c << 8 | d}",
        f"{a}.{b}.{c}.{d}.", f"00{a:o}.{b:#x}.{c}.{d}",
    ]


@pytest.mark.parametrize("host", [
    "2130706433", "0177.0.0.1", "0x7f.1", "127.1", "0x7f000001", "017700000001", "127.0.1", "0x7F.0.0.1",
    "0xa9.0xfe.0xa9.0xfe", "2852039166", "10.1", "0", "0x", "0.0", "192.168.257",
])
def test_numeric_host_tricks_are_normalised_and_refused_R_createSubscription_13(host: str) -> None:
    """R-createSubscription-13: decimal, octal, hex and short IPv4 spellings of blocked addresses."""
    with pytest.raises(EndpointBlocked):
        check_host(host, 443)


@settings(max_examples=200, deadline=None)
@given(blocked_v4())
def test_every_inet_aton_spelling_of_a_blocked_ipv4_is_refused(v4: ipaddress.IPv4Address) -> None:
    for spelling in _spellings(v4):
        assert inet_aton(spelling) == v4, spelling
        with pytest.raises(EndpointBlocked):
            check_host(spelling, 443)


@pytest.mark.parametrize("host", ["1.2.3.4.5", "256.1.1.1", "1.16777216", "4294967296", "08.0.0.1",
                                  "0x1g.1", "999", "example.123", "a.b.0x10"])
def test_number_ish_hosts_that_are_not_addresses_never_slip_through(host: str) -> None:
    """A host whose last label is a number but that is no valid address is refused, not looked up."""
    with pytest.raises(EndpointBlocked):
        check_host(host, 443)


def test_public_address_in_numeric_spelling_is_canonicalised() -> None:
    destination = check_host("134744072", 443)
    assert destination.host == "8.8.8.8" and destination.addresses == (ipaddress.IPv4Address("8.8.8.8"),)


def test_allow_list_exempts_loopback_only(override_settings) -> None:
    """egress_allow_cidrs lets tests and private deployments reach listed ranges, nothing more."""
    override_settings(egress_allow_cidrs="127.0.0.0/8, fd00:ec2::/64")
    assert not is_blocked_address("127.0.0.1")
    assert not is_blocked_address("::ffff:127.0.0.1")
    assert not is_blocked_address("fd00:ec2::254")
    assert check_host("0x7f.1", 443).addresses == (ipaddress.IPv4Address("127.0.0.1"),)
    assert is_blocked_address("10.0.0.1") and is_blocked_address("169.254.169.254")
    assert is_blocked_address("::1")


def test_malformed_allow_list_names_the_setting(override_settings) -> None:
    from hub.egress import EgressConfigError, validate_egress_settings

    override_settings(egress_allow_cidrs="127.0.0.0/8,not-a-cidr")
    with pytest.raises(EgressConfigError, match="HUB_EGRESS_ALLOW_CIDRS entry 2") as caught:
        is_blocked_address("8.8.8.8")
    assert "not-a-cidr" not in str(caught.value)
    with pytest.raises(EgressConfigError):
        validate_egress_settings()

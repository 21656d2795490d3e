"""The webhook sink's transport failures against real failing servers, and what its client trusts and ignores.

Each failure of the compiled client (pyreqwest) lands in the same ``ErrorClass`` the aiohttp path gave
(N79): a handshake that never ends is a timeout, a closed or reset connection while opening is
connection_reset, plain HTTP where TLS was expected and an unknown CA are tls, a closed port is
connect_refused, a silent DNS server is dns. The detail is the hub's own sentence: never the URL.
Trust is the system's roots plus ``webhook_ca_bundle``; proxy variables are never read.
"""

from __future__ import annotations

import socket
from collections.abc import Callable
from pathlib import Path

import pytest
import trustme

from hub.config import get_settings
from hub.providers.webhook.sink import WebhookSink
from hub.sinks.base import AttemptResult, PreparedDelivery
from devkit.dnsserver import DnsServer, dns_server
from devkit.receiver import Receiver, https_receiver
from devkit.tcpfaults import faulty_server
from tests.sinks.conftest import HOOK_HOST, run, webhook_delivery


def deliver(delivery: PreparedDelivery) -> AttemptResult:
    sink = WebhookSink(settings=get_settings())

    async def go() -> AttemptResult:
        try:
            return await sink.deliver(delivery)
        finally:
            await sink.close()

    return run(go())


def assert_sanitized(result: AttemptResult, port: int) -> None:
    assert result.detail and HOOK_HOST not in result.detail and str(port) not in result.detail
    assert "://" not in result.detail


@pytest.mark.parametrize(("behaviour", "error_class"), [
    ("silent", "timeout"), ("close", "connection_reset"), ("reset", "connection_reset"), ("plain", "tls"),
])
def test_failing_servers_are_classified(hook_dns: DnsServer, behaviour: str, error_class: str) -> None:
    with faulty_server(behaviour) as server:
        result = deliver(webhook_delivery(f"https://{HOOK_HOST}:{server.port}/hooks", timeout=0.5))
    assert (result.ok, result.error_class, result.status_code) == (False, error_class, 0)
    assert_sanitized(result, server.port)


def test_a_closed_port_is_connect_refused(hook_dns: DnsServer) -> None:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port = sock.getsockname()[1]
    result = deliver(webhook_delivery(f"https://{HOOK_HOST}:{port}/hooks"))
    assert (result.error_class, result.status_code) == ("connect_refused", 0)
    assert_sanitized(result, port)


def test_a_silent_dns_server_is_a_dns_failure(hook_dns: DnsServer, override_settings: Callable[..., None]) -> None:
    with dns_server(silent=True) as mute:
        override_settings(dns_nameservers=mute.address, dns_timeout_seconds=0.3)
        result = deliver(webhook_delivery(f"https://{HOOK_HOST}/hooks"))
    assert (result.error_class, result.status_code) == ("dns", 0)


def test_a_certificate_from_an_unknown_ca_is_tls(hook_dns: DnsServer) -> None:
    with https_receiver(trustme.CA(), (HOOK_HOST,)) as stranger:
        result = deliver(webhook_delivery(f"https://{HOOK_HOST}:{stranger.port}/hooks"))
    assert (result.error_class, result.status_code) == ("tls", 0)
    assert stranger.received == []


def test_the_system_roots_and_the_bundle_are_both_trusted(hook_dns: DnsServer, receiver: Receiver,
                                                          tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A CA of the system's store (here through SSL_CERT_FILE, which the system store honours) and the CA of
    ``webhook_ca_bundle`` both verify, on one sink."""
    system_ca = trustme.CA()
    system_file = tmp_path / "system.pem"
    system_ca.cert_pem.write_to_path(str(system_file))
    monkeypatch.setenv("SSL_CERT_FILE", str(system_file))
    with https_receiver(system_ca, (HOOK_HOST,)) as by_system:
        sink = WebhookSink(settings=get_settings())

        async def go() -> list[AttemptResult]:
            try:
                return [await sink.deliver(webhook_delivery(f"https://{HOOK_HOST}:{port}/hooks"))
                        for port in (by_system.port, receiver.port)]
            finally:
                await sink.close()

        results = run(go())
    assert [r.ok for r in results] == [True, True], results


def test_a_bundle_of_several_cas_trusts_each(hook_dns: DnsServer, ca: trustme.CA, tmp_path: Path,
                                             override_settings: Callable[..., None]) -> None:
    second = trustme.CA()
    bundle = tmp_path / "bundle.pem"
    bundle.write_bytes(second.cert_pem.bytes() + ca.cert_pem.bytes())
    override_settings(webhook_ca_bundle=str(bundle))
    with https_receiver(ca, (HOOK_HOST,)) as first_ca, https_receiver(second, (HOOK_HOST,)) as second_ca:
        results = [deliver(webhook_delivery(f"https://{HOOK_HOST}:{r.port}/hooks")) for r in (first_ca, second_ca)]
    assert [r.ok for r in results] == [True, True], results


def test_proxy_variables_are_never_read(hook_dns: DnsServer, receiver: Receiver,
                                        monkeypatch: pytest.MonkeyPatch) -> None:
    """With every proxy variable pointing at a server that resets, the delivery still goes straight there."""
    with faulty_server("reset") as proxy:
        for name in ("HTTPS_PROXY", "https_proxy", "ALL_PROXY", "all_proxy", "HTTP_PROXY", "http_proxy"):
            monkeypatch.setenv(name, f"http://127.0.0.1:{proxy.port}")
        result = deliver(webhook_delivery(f"https://{HOOK_HOST}:{receiver.port}/hooks"))
        assert result.ok, result
        assert proxy.connections == 0

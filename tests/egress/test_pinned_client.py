"""The connecting side: a real HTTPS server on loopback, reached through a pinned, non-redirecting client.

The server's certificate (from a private trustme CA) names ``hooks.example.test``, a name no resolver knows.
The client reaches it only because it connects to the pinned 127.0.0.1 while keeping SNI, Host and
certificate verification for the name; the DNS server is rebound afterwards to prove nothing re-resolves.
"""

from __future__ import annotations

import ipaddress
import ssl
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import httpx
import pytest
import trustme

from hub.egress import (
    EndpointBlocked,
    PinnedHostMismatch,
    ResolvedDestination,
    check_webhook_url,
    pinned_http_client,
    post_pinned,
)
from tests.egress.dnsserver import DnsServer

HOST = "hooks.example.test"
LOOPBACK = ipaddress.IPv4Address("127.0.0.1")


@dataclass
class TlsServer:
    port: int
    requests: list[dict[str, object]] = field(default_factory=list)
    server_names: list[str | None] = field(default_factory=list)


@pytest.fixture(scope="module")
def ca() -> trustme.CA:
    return trustme.CA()


@pytest.fixture
def client_tls(ca: trustme.CA) -> ssl.SSLContext:
    context = ssl.create_default_context()
    ca.configure_trust(context)
    return context


@contextmanager
def https_server(ca: trustme.CA, name: str) -> Iterator[TlsServer]:
    context = ssl.create_default_context(ssl.Purpose.CLIENT_AUTH)
    ca.issue_cert(name).configure_cert(context)
    state = TlsServer(port=0)
    context.sni_callback = lambda _sock, server_name, _ctx: state.server_names.append(server_name)

    class Handler(BaseHTTPRequestHandler):
        def _reply(self) -> None:
            length = int(self.headers.get("Content-Length") or 0)
            body = self.rfile.read(length) if length else b""
            state.requests.append({"method": self.command, "path": self.path, "host": self.headers["Host"],
                                   "body": body})
            if self.path.startswith("/redirect"):
                self.send_response(302)
                self.send_header("Location", self.path.split("to=", 1)[1])
                self.send_header("Content-Length", "0")
                self.end_headers()
                return
            payload = b"received"
            self.send_response(200)
            self.send_header("Content-Length", str(len(payload)))
            self.end_headers()
            self.wfile.write(payload)

        do_GET = do_POST = _reply

        def log_message(self, *_: object) -> None:
            pass

    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    server.daemon_threads = True
    server.socket = context.wrap_socket(server.socket, server_side=True)
    state.port = server.server_address[1]
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield state
    finally:
        server.shutdown()
        server.server_close()


@pytest.fixture
def tls_server(ca: trustme.CA) -> Iterator[TlsServer]:
    with https_server(ca, HOST) as state:
        yield state


def test_pinned_post_reaches_the_checked_address_and_never_re_resolves(
    zone_dns: DnsServer, override_settings, tls_server: TlsServer, client_tls: ssl.SSLContext
) -> None:
    zone_dns.zone[HOST] = [("A", "127.0.0.1")]
    override_settings(egress_allow_cidrs="127.0.0.0/8")
    url = f"https://{HOST}:{tls_server.port}/hooks/42"
    destination = check_webhook_url(url)
    assert destination == ResolvedDestination(host=HOST, port=tls_server.port, addresses=(LOOPBACK,))
    lookups = len(zone_dns.queries)

    zone_dns.zone[HOST] = [("A", "10.0.0.1")]  # rebinding: the name now points somewhere else
    response = post_pinned(destination, url, content=b'{"n":1}', headers={"content-type": "application/json"},
                           timeout=5, verify=client_tls)

    assert response.status_code == 200 and response.content == b"received"
    assert tls_server.requests == [{"method": "POST", "path": "/hooks/42", "host": f"{HOST}:{tls_server.port}",
                                    "body": b'{"n":1}'}]
    assert tls_server.server_names == [HOST], "SNI must carry the original host name"
    assert len(zone_dns.queries) == lookups, "connecting must not look the name up again"
    assert response.request.url == httpx.URL(url)
    # The system resolver does not know the name: only pinning could have reached the server.
    with pytest.raises(httpx.ConnectError):
        httpx.post(url, content=b"", verify=client_tls, timeout=5, trust_env=False)
    assert len(tls_server.requests) == 1


def test_certificate_is_verified_for_the_original_name(ca: trustme.CA, client_tls: ssl.SSLContext) -> None:
    with https_server(ca, "other.example.test") as server:
        destination = ResolvedDestination(host=HOST, port=server.port, addresses=(LOOPBACK,))
        with pytest.raises(httpx.ConnectError, match="CERTIFICATE_VERIFY_FAILED|match"):
            post_pinned(destination, f"https://{HOST}:{server.port}/", content=b"", headers={}, timeout=5,
                        verify=client_tls)
        assert server.requests == []


def test_certificate_from_an_untrusted_ca_is_refused(tls_server: TlsServer) -> None:
    destination = ResolvedDestination(host=HOST, port=tls_server.port, addresses=(LOOPBACK,))
    with pytest.raises(httpx.ConnectError):
        post_pinned(destination, f"https://{HOST}:{tls_server.port}/", content=b"", headers={}, timeout=5)
    assert tls_server.requests == []


@pytest.mark.parametrize("target", ["https://{host}:{port}/hooks/1", "https://127.0.0.1:9/", "https://10.0.0.1/"])
def test_redirects_are_not_followed(tls_server: TlsServer, client_tls: ssl.SSLContext, target: str) -> None:
    destination = ResolvedDestination(host=HOST, port=tls_server.port, addresses=(LOOPBACK,))
    location = target.format(host=HOST, port=tls_server.port)
    with pinned_http_client(destination, timeout=5, verify=client_tls) as client:
        response = client.get(f"https://{HOST}:{tls_server.port}/redirect?to={location}")
    assert response.status_code == 302 and response.headers["location"] == location
    assert len(tls_server.requests) == 1


@pytest.mark.parametrize("url", ["https://elsewhere.example.test:{port}/", "https://{host}:1/",
                                 "http://{host}:{port}/", "https://127.0.0.1:{port}/"])
def test_pinned_client_refuses_any_other_destination(tls_server: TlsServer, client_tls: ssl.SSLContext,
                                                     url: str) -> None:
    destination = ResolvedDestination(host=HOST, port=tls_server.port, addresses=(LOOPBACK,))
    with pinned_http_client(destination, timeout=5, verify=client_tls) as client:
        with pytest.raises(PinnedHostMismatch):
            client.get(url.format(host=HOST, port=tls_server.port))
        # Even a caller that opts into redirects cannot be sent to another host.
        with pytest.raises(PinnedHostMismatch):
            client.get(f"https://{HOST}:{tls_server.port}/redirect?to=https://10.0.0.1/", follow_redirects=True)
    assert [r["path"] for r in tls_server.requests] == ["/redirect?to=https://10.0.0.1/"]


def test_verification_cannot_be_switched_off() -> None:
    destination = ResolvedDestination(host=HOST, port=443, addresses=(LOOPBACK,))
    with pytest.raises(ValueError):
        pinned_http_client(destination, timeout=5, verify=False)


def test_checked_loopback_is_refused_without_the_allow_list(zone_dns: DnsServer) -> None:
    zone_dns.zone[HOST] = [("A", "127.0.0.1")]
    with pytest.raises(EndpointBlocked):
        check_webhook_url(f"https://{HOST}:8443/hooks")

"""Connecting to a checked destination: to its checked address only, with TLS still verified for its name.

The connection goes to ``destination.addresses[0]``; the URL's host name is kept for the Host header, TLS SNI
and certificate verification. Nothing here resolves the name again, so there is no DNS-rebinding window, and
redirects are never followed (a redirect to another host would be refused by the transport anyway).
"""

from __future__ import annotations

import ssl
from collections.abc import Mapping

import httpx

from hub.egress.check import ResolvedDestination, canonical_host
from hub.egress.errors import InvalidDestination
from hub.errors import ValidationFailed


class PinnedHostMismatch(httpx.TransportError):
    """A request through a pinned client named another scheme, host or port than its destination."""


class PinnedTransport(httpx.HTTPTransport):
    """An HTTPS transport that sends every request to one checked address of one destination."""

    def __init__(self, destination: ResolvedDestination, *, verify: ssl.SSLContext | bool = True) -> None:
        if not destination.addresses:
            raise InvalidDestination("a pinned destination needs at least one checked address")
        # trust_env=False: a proxy from the environment would resolve the name itself.
        super().__init__(verify=verify, trust_env=False, retries=0)
        self._destination = destination

    def _matches(self, url: httpx.URL) -> bool:
        try:
            host, _ = canonical_host(url.raw_host.decode("ascii"))
        except ValidationFailed:
            return False
        port = url.port if url.port is not None else 443
        return url.scheme == "https" and host == self._destination.host and port == self._destination.port

    def handle_request(self, request: httpx.Request) -> httpx.Response:
        if not self._matches(request.url):
            raise PinnedHostMismatch("the request does not go to the pinned destination", request=request)
        address = self._destination.addresses[0]
        pinned = httpx.Request(
            request.method,
            request.url.copy_with(host=str(address)),
            headers=request.headers,  # keeps the original Host header
            stream=request.stream,
            extensions={**request.extensions, "sni_hostname": self._destination.host.removesuffix(".")},
        )
        return super().handle_request(pinned)


def pinned_http_client(
    destination: ResolvedDestination,
    *,
    timeout: float | httpx.Timeout,
    verify: ssl.SSLContext | bool = True,
    headers: Mapping[str, str] | None = None,
) -> httpx.Client:
    """An ``httpx.Client`` bound to ``destination``: no redirects, no proxies, no re-resolution.

    ``verify`` is an SSL context (e.g. a private CA in tests); verification is never turned off here.
    """
    if verify is False:
        raise ValueError("a pinned client always verifies the destination's certificate")
    return httpx.Client(
        transport=PinnedTransport(destination, verify=verify),
        timeout=timeout,
        follow_redirects=False,
        trust_env=False,
        headers=headers,
    )


def post_pinned(
    destination: ResolvedDestination,
    url: str,
    *,
    content: bytes,
    headers: Mapping[str, str],
    timeout: float | httpx.Timeout,
    verify: ssl.SSLContext | bool = True,
) -> httpx.Response:
    """POST ``content`` to ``url`` (whose host must be ``destination.host``) over a pinned connection."""
    with pinned_http_client(destination, timeout=timeout, verify=verify) as client:
        return client.post(url, content=content, headers=headers)

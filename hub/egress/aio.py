"""An aiohttp egress path: pooled HTTPS connections that open only to checked addresses.

Webhook deliveries go through hub.egress.pinned instead (N79); this session remains for aiohttp
clients (the benches' former-path row).

Each *new* connection asks :class:`CheckedResolver`, which runs the destination check (resolution
plus the blocked-range tables) and hands aiohttp only the addresses that passed; aiohttp then
connects to one of them while the Host header, TLS SNI and certificate verification keep the
URL's name. Nothing is cached between connections (``use_dns_cache=False``), so a name that
rebinds to a private address is refused on the next connection it would open. A pooled
keep-alive connection is reused as is: it goes to an address that was checked when it opened.

IP-literal hosts never reach a resolver in aiohttp, so :func:`check_literal` (hub.egress.refusal)
must be called before a request to a literal host (it does no I/O).
"""

from __future__ import annotations

import asyncio
import socket
import ssl
from functools import lru_cache

import aiohttp
from aiohttp.abc import AbstractResolver, ResolveResult

from hub.egress.check import check_host
from hub.egress.refusal import EgressRefused, check_literal
from hub.errors import HubError


class CheckedResolver(AbstractResolver):
    """An aiohttp resolver that returns only addresses the SSRF check allowed, checked now."""

    async def resolve(self, host: str, port: int = 0,
                      family: socket.AddressFamily = socket.AF_INET) -> list[ResolveResult]:
        try:
            destination = await asyncio.to_thread(check_host, host, port or 443)
        except HubError as exc:
            raise EgressRefused(exc) from None
        return [
            {"hostname": host, "host": str(address), "port": port,
             "family": socket.AF_INET6 if address.version == 6 else socket.AF_INET,
             "proto": 0, "flags": socket.AI_NUMERICHOST}
            for address in destination.addresses
        ]

    async def close(self) -> None:
        return None


@lru_cache(maxsize=8)
def tls_context(extra_ca_bundle: str = "") -> ssl.SSLContext:
    """The system's trust store plus an optional PEM bundle of private CAs; verification always on."""
    context = ssl.create_default_context()
    if extra_ca_bundle:
        context.load_verify_locations(cafile=extra_ca_bundle)
    return context


def checked_session(*, total_limit: int, per_host_limit: int, keepalive_seconds: float,
                    extra_ca_bundle: str = "", headers: dict[str, str] | None = None) -> aiohttp.ClientSession:
    """A pooled client session whose every new connection goes through :class:`CheckedResolver`.

    Call it inside a running event loop. Redirects are refused per request by the caller
    (``allow_redirects=False``); proxies from the environment are ignored (``trust_env=False``).
    ``headers`` are sent on every request besides ``Accept-Encoding: identity``.
    """
    connector = aiohttp.TCPConnector(
        resolver=CheckedResolver(), use_dns_cache=False, ssl=tls_context(extra_ca_bundle),
        limit=total_limit, limit_per_host=per_host_limit, keepalive_timeout=keepalive_seconds,
    )
    # "Accept-Encoding: identity" as a default header rather than skip_auto_headers: the same
    # request on the wire (nothing is decompressed), without aiohttp's per-request copy of the
    # headers that skip_auto_headers costs.
    return aiohttp.ClientSession(connector=connector, trust_env=False, auto_decompress=False,
                                 cookie_jar=aiohttp.DummyCookieJar(),
                                 headers={"Accept-Encoding": "identity", **(headers or {})})


__all__ = ["CheckedResolver", "EgressRefused", "check_literal", "checked_session", "tls_context"]

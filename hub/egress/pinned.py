"""HTTPS clients pinned to checked addresses: the egress path of webhook deliveries (N79).

The compiled client (``pyreqwest``, Rust reqwest) has no resolver hook, so the guard runs before it:
a name is resolved and checked by hub.egress.pins, and the request goes through a client whose only
resolution is that checked address (``resolve(host, address)``), while the Host header, TLS SNI and
certificate verification keep the URL's name. An IP-literal host is checked directly. A client per
(scheme, host, port, address) holds that destination's keep-alive pool; the clients are a bounded LRU,
and an evicted one is closed once its last request ends. No client reads proxy variables, follows a
redirect, decompresses, or trusts anything but the system's roots plus ``extra_ca_bundle``.
"""

from __future__ import annotations

import asyncio
from collections import OrderedDict
from dataclasses import dataclass
from datetime import timedelta
from functools import lru_cache
from pathlib import Path

from pyreqwest.client import Client, ClientBuilder
from pyreqwest.http import Url

from hub.egress.pins import CheckedPins
from hub.egress.refusal import check_literal

MAX_CLIENTS = 1024
PoolKey = tuple[str, str, int, str]  # (scheme, host, port, address)
_PEM_END = b"-----END CERTIFICATE-----"


@dataclass(frozen=True, slots=True)
class HttpsEndpoint:
    """A destination URL as the client sends it, and the host the client would look up."""

    url: Url
    host: str  # as the client looks it up: lowercased punycode name, or the IP literal without brackets
    port: int
    is_name: bool  # a DNS name (pinned to a checked address), not an IP literal


@lru_cache(maxsize=65_536)
def parse_https_endpoint(endpoint: str) -> HttpsEndpoint:
    """``endpoint`` parsed by the client's own URL parser (cached); ValueError unless an https:// URL with a host."""
    try:
        url = Url(endpoint)
    except ValueError:
        raise ValueError("not a URL") from None
    if url.scheme != "https" or not url.host_str:
        raise ValueError("a webhook endpoint is an https:// URL")
    domain = url.domain
    host = domain if domain is not None else url.host_str.strip("[]")
    return HttpsEndpoint(url, host, url.port_or_known_default or 443, domain is not None)


@lru_cache(maxsize=8)
def pem_certificates(bundle: str) -> tuple[bytes, ...]:
    """Each certificate of a PEM bundle file, one by one (the client adds one root per call)."""
    if not bundle:
        return ()
    data = Path(bundle).read_bytes()
    return tuple(part.strip() + b"\n" + _PEM_END + b"\n" for part in data.split(_PEM_END) if b"-----BEGIN" in part)


@dataclass(frozen=True)
class ClientOptions:
    """What every pinned client shares: pool bounds, extra trust, and the headers of every request."""

    per_host_limit: int
    keepalive_seconds: float
    extra_ca_bundle: str = ""
    user_agent: str = ""
    headers: tuple[tuple[str, str], ...] = ()


def build_client(options: ClientOptions, endpoint: HttpsEndpoint, address: str | None) -> Client:
    """A client for ``endpoint`` whose only name resolution is ``address`` (None: an IP-literal host)."""
    builder = (ClientBuilder().no_proxy().follow_redirects(False).referer(False).https_only(True)
               .gzip(False).brotli(False).zstd(False).deflate(False)
               .max_connections(options.per_host_limit).pool_max_idle_per_host(options.per_host_limit)
               .pool_idle_timeout(timedelta(seconds=options.keepalive_seconds))
               .default_headers(dict(options.headers)))
    if options.user_agent:
        builder = builder.user_agent(options.user_agent)
    for certificate in pem_certificates(options.extra_ca_bundle):
        builder = builder.add_root_certificate_pem(certificate)
    if address is not None:
        builder = builder.resolve(endpoint.host, address, endpoint.port)
    return builder.build()


class _Pooled:
    """One cached client and the requests using it."""

    __slots__ = ("client", "users", "evicted", "closed")

    def __init__(self, client: Client) -> None:
        self.client, self.users, self.evicted, self.closed = client, 0, False, False


class Lease:
    """A client lent for one request; end it with :meth:`kept`, :meth:`closed` or :meth:`failed`."""

    __slots__ = ("client", "_pooled", "_owner", "_endpoint")

    def __init__(self, pooled: _Pooled, owner: PinnedClients, endpoint: HttpsEndpoint) -> None:
        self.client, self._pooled, self._owner, self._endpoint = pooled.client, pooled, owner, endpoint

    def kept(self) -> None:
        """The answer was read whole and its connection stays pooled."""
        self._owner.release(self._pooled)

    def closed(self) -> None:
        """The answer closed its connection: the next request checks the destination again."""
        self._owner.pins.forget(self._endpoint.host, self._endpoint.port)
        self._owner.release(self._pooled)

    def failed(self) -> None:
        """The exchange failed: the next request goes to the next checked address, or checks again."""
        self._owner.pins.skip(self._endpoint.host, self._endpoint.port)
        self._owner.release(self._pooled)


class PinnedClients:
    """The pinned clients of one sink, by (scheme, host, port, address), at most ``max_clients``."""

    def __init__(self, options: ClientOptions, *, max_clients: int = MAX_CLIENTS,
                 pins: CheckedPins | None = None) -> None:
        self._options = options
        self._max = max(1, max_clients)
        self.pins = pins or CheckedPins(idle_seconds=options.keepalive_seconds)
        self._clients: OrderedDict[PoolKey, _Pooled] = OrderedDict()
        self._closing: set[asyncio.Task[None]] = set()

    async def lease(self, endpoint: HttpsEndpoint) -> Lease:
        """A client for ``endpoint``, pinned to an address the guard allowed (raises EgressRefused)."""
        if endpoint.is_name:
            address = str(await self.pins.address(endpoint.host, endpoint.port))
        else:
            check_literal(endpoint.host, endpoint.port)
            address = endpoint.host
        key = (endpoint.url.scheme, endpoint.host, endpoint.port, address)
        pooled = self._clients.get(key)
        if pooled is None:
            pooled = self._add(key, endpoint)
        else:
            self._clients.move_to_end(key)
        pooled.users += 1
        return Lease(pooled, self, endpoint)

    def _add(self, key: PoolKey, endpoint: HttpsEndpoint) -> _Pooled:
        pooled = _Pooled(build_client(self._options, endpoint, key[3] if endpoint.is_name else None))
        self._clients[key] = pooled
        while len(self._clients) > self._max:
            _, oldest = self._clients.popitem(last=False)
            oldest.evicted = True
            self._close_when_idle(oldest)
        return pooled

    def release(self, pooled: _Pooled) -> None:
        """A request on ``pooled`` ended; an evicted client closes after its last one."""
        pooled.users -= 1
        if pooled.evicted:
            self._close_when_idle(pooled)

    def _close_when_idle(self, pooled: _Pooled) -> None:
        """Close an evicted client once no request uses it (closing it would fail those requests)."""
        if pooled.users > 0 or pooled.closed:
            return
        pooled.closed = True
        task = asyncio.get_running_loop().create_task(pooled.client.close())
        self._closing.add(task)
        task.add_done_callback(self._closing.discard)

    def keys(self) -> list[PoolKey]:
        """The cached clients' keys, least recently used first."""
        return list(self._clients)

    async def close(self) -> None:
        """Close every client (a second call does nothing)."""
        pooled_clients, self._clients = list(self._clients.values()), OrderedDict()
        for pooled in pooled_clients:
            if not pooled.closed:
                pooled.closed = True
                await pooled.client.close()
        if self._closing:
            await asyncio.gather(*self._closing, return_exceptions=True)

"""The webhook sink's clients pinned to checked addresses (N79), against real HTTPS receivers and a real DNS server.

A name is resolved and checked by the hub's guard; the compiled client connects only to the checked
address and never resolves on its own, so a DNS answer that changes after the check is not reached.
The check runs again when the pool may need a fresh answer; the clients are a bounded LRU whose
evicted members close once their last request ends.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable, Iterator
from typing import Any

import pytest
import trustme
from pyreqwest.exceptions import ClientClosedError

from hub.config import get_settings
from hub.egress.pinned import ClientOptions, PinnedClients, parse_https_endpoint
from hub.egress.pins import CheckedPins
from hub.egress.refusal import EgressRefused
from hub.providers.webhook.sink import WebhookSink
from hub.sinks.base import AttemptResult
from devkit.dnsserver import DnsServer
from devkit.receiver import Received, Receiver, Reply, https_receiver
from tests.sinks.conftest import REBIND_HOST, run, webhook_delivery

NAMES = ("one.example.test", "two.example.test", "three.example.test")


@pytest.fixture
def twin_receivers(ca: trustme.CA, hook_dns: DnsServer,
                   override_settings: Callable[..., None]) -> Iterator[tuple[Receiver, Receiver]]:
    """The allowed receiver on 127.0.0.1 (answering from its ``actions``) and, on the same port, one on
    127.0.0.2, which the guard refuses (only 127.0.0.1/32 is allowed); both hold the rebinding name's certificate."""
    override_settings(egress_allow_cidrs="127.0.0.1/32")
    actions: list[Any] = []

    def script(_item: Received) -> Any:
        return actions.pop(0) if actions else Reply()

    with https_receiver(ca, (REBIND_HOST,), script) as allowed:
        allowed.actions = actions  # type: ignore[attr-defined]
        with https_receiver(ca, (REBIND_HOST,), port=allowed.port, bind="127.0.0.2") as blocked:
            yield allowed, blocked


def test_a_name_rebound_after_the_check_is_not_reached(twin_receivers: tuple[Receiver, Receiver],
                                                       hook_dns: DnsServer) -> None:
    """Checked at 127.0.0.1, then answering 127.0.0.2: the pool's new connections (three deliveries at once)
    still go to the checked address and the client asks DNS nothing; once an answer closes its connection
    the name is checked again and refused. The receiver at the new address never sees a connection."""
    allowed, blocked = twin_receivers
    url = f"https://{REBIND_HOST}:{allowed.port}/hooks"
    sink = WebhookSink(settings=get_settings())

    async def go() -> tuple[AttemptResult, list[AttemptResult], int, AttemptResult, AttemptResult]:
        try:
            first = await sink.deliver(webhook_delivery(url))
            hook_dns.zone[REBIND_HOST] = [("A", "127.0.0.2")]
            allowed.actions.extend([("sleep", 0.3)] * 3)  # type: ignore[attr-defined]
            burst = await asyncio.gather(*(sink.deliver(webhook_delivery(url)) for _ in range(3)))
            queries = hook_dns.count(REBIND_HOST)
            allowed.actions.append(Reply(200, {"Connection": "close"}))  # type: ignore[attr-defined]
            closing = await sink.deliver(webhook_delivery(url))
            return first, list(burst), queries, closing, await sink.deliver(webhook_delivery(url))
        finally:
            await sink.close()

    first, burst, queries, closing, refused = run(go())
    assert first.ok and all(result.ok for result in burst) and closing.ok
    assert queries == 2  # the guard's one check (A and AAAA); the client resolved nothing itself
    assert allowed.connections == 3 and len(allowed.received) == 5
    assert (refused.ok, refused.error_class, refused.status_code) == (False, "endpoint_blocked", 0)
    assert blocked.connections == 0 and blocked.received == []


def test_a_check_is_kept_while_used_and_redone_when_idle_or_old(hook_dns: DnsServer) -> None:
    """One check serves back-to-back requests and concurrent first requests; idle or old, it is redone."""
    pins = CheckedPins(idle_seconds=0.3, recheck_seconds=1.0)

    async def go() -> list[int]:
        counts = []
        await asyncio.gather(*(pins.address(REBIND_HOST, 443) for _ in range(5)))
        counts.append(hook_dns.count(REBIND_HOST))
        for _ in range(3):
            await pins.address(REBIND_HOST, 443)
            await asyncio.sleep(0.1)
        counts.append(hook_dns.count(REBIND_HOST))
        await asyncio.sleep(0.4)  # idle past the pool's idle time
        await pins.address(REBIND_HOST, 443)
        counts.append(hook_dns.count(REBIND_HOST))
        for _ in range(6):  # busy, but older than recheck_seconds at the end
            await pins.address(REBIND_HOST, 443)
            await asyncio.sleep(0.2)
        counts.append(hook_dns.count(REBIND_HOST))
        return counts

    assert run(go()) == [2, 2, 4, 6]


def test_a_refusal_is_not_kept_and_a_failure_moves_to_the_next_address(hook_dns: DnsServer) -> None:
    hook_dns.zone["multi.example.test"] = [("A", "127.0.0.1"), ("A", "127.0.0.3")]
    pins = CheckedPins(idle_seconds=30)

    async def go() -> tuple[list[str], int]:
        seen = [str(await pins.address("multi.example.test", 443))]
        pins.skip("multi.example.test", 443)
        seen.append(str(await pins.address("multi.example.test", 443)))
        pins.skip("multi.example.test", 443)  # past the last address: checked again
        seen.append(str(await pins.address("multi.example.test", 443)))
        for _ in range(2):
            with pytest.raises(EgressRefused):
                await pins.address("private.example.test", 443)
        return seen, hook_dns.count("private.example.test")

    seen, private_queries = run(go())
    assert {seen[0], seen[1]} == {"127.0.0.1", "127.0.0.3"} and seen[2] in seen[:2]
    assert hook_dns.count("multi.example.test") == 4
    assert private_queries == 4  # both refusals asked DNS (A and AAAA each)


@pytest.fixture
def named_receiver(ca: trustme.CA, hook_dns: DnsServer) -> Iterator[Receiver]:
    for name in NAMES:
        hook_dns.zone[name] = [("A", "127.0.0.1")]
    with https_receiver(ca, NAMES) as receiver:
        yield receiver


def options() -> ClientOptions:
    settings = get_settings()
    return ClientOptions(per_host_limit=4, keepalive_seconds=4.0, extra_ca_bundle=settings.webhook_ca_bundle)


async def post(clients: PinnedClients, url: str) -> int:
    lease = await clients.lease(parse_https_endpoint(url))
    try:
        async with lease.client.post(url).body_bytes(b"{}").build_streamed() as response:
            await response.body_reader.bytes()
            status = response.status
    except BaseException:
        lease.failed()
        raise
    lease.kept()
    return status


def test_the_client_cache_evicts_the_least_recently_used_and_closes_it(named_receiver: Receiver) -> None:
    """Bounded at two: the third destination evicts the least recently used client, which is closed."""
    urls = [f"https://{name}:{named_receiver.port}/hooks" for name in NAMES]
    clients = PinnedClients(options(), max_clients=2)

    async def go() -> list[tuple[str, str, int, str]]:
        try:
            await post(clients, urls[0])
            lease = await clients.lease(parse_https_endpoint(urls[1]))
            lease.kept()
            await post(clients, urls[0])  # now the most recently used: the second is the least
            await post(clients, urls[2])
            evicted = lease.client
            await asyncio.sleep(0.05)  # the evicted client closes in a task of its own
            with pytest.raises(ClientClosedError):
                async with evicted.post(urls[1]).body_bytes(b"{}").build_streamed():
                    pass
            return clients.keys()
        finally:
            await clients.close()

    port = named_receiver.port
    assert run(go()) == [("https", NAMES[0], port, "127.0.0.1"), ("https", NAMES[2], port, "127.0.0.1")]


def test_an_evicted_client_in_use_closes_only_after_its_request(named_receiver: Receiver) -> None:
    """Eviction never fails a request in flight: the client closes when its last lease ends."""
    urls = [f"https://{name}:{named_receiver.port}/hooks" for name in NAMES]
    clients = PinnedClients(options(), max_clients=1)

    async def go() -> tuple[int, bool]:
        try:
            lease = await clients.lease(parse_https_endpoint(urls[0]))
            await post(clients, urls[1])  # evicts the leased client
            await asyncio.sleep(0.05)
            async with lease.client.post(urls[0]).body_bytes(b"{}").build_streamed() as response:
                status = response.status
            lease.kept()
            await asyncio.sleep(0.05)
            try:
                async with lease.client.post(urls[0]).body_bytes(b"{}").build_streamed():
                    pass
            except ClientClosedError:
                return status, True
            return status, False
        finally:
            await clients.close()

    assert run(go()) == (200, True)


def test_closing_the_sink_closes_its_clients(named_receiver: Receiver) -> None:
    sink = WebhookSink(settings=get_settings())
    url = f"https://{NAMES[0]}:{named_receiver.port}/hooks"

    async def go() -> tuple[AttemptResult, AttemptResult]:
        first = await sink.deliver(webhook_delivery(url))
        await sink.close()
        started = time.monotonic()
        again = await sink.deliver(webhook_delivery(url))  # a closed sink opens new clients on demand
        assert time.monotonic() - started < 5
        await sink.close()
        return first, again

    first, again = run(go())
    assert first.ok and again.ok and named_receiver.connections == 2

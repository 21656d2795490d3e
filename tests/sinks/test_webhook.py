"""The webhook sink against real HTTPS receivers on loopback (trustme certificates, a real DNS server).

Rules: R-X-SEC-07 (dual signature during a rotation overlap), R-X-STATE-08 (status 0 when no HTTP
answer applies); the request shape of the hub's webhook decision (structured CloudEvent, Standard
Webhooks v1, stable webhook-id, fresh webhook-timestamp, user-agent).
"""

from __future__ import annotations

import time
from typing import Any

import pytest
from standardwebhooks import Webhook

from hub import __version__
from hub.config import get_settings
from hub.secrets import mint_signing_secret
from hub.sinks.base import AttemptResult, PreparedDelivery
from hub.sinks.vocabulary import ErrorClass
from hub.providers.webhook.sink import WebhookSink
from devkit.dnsserver import DnsServer
from tests.sinks.conftest import HOOK_HOST, REBIND_HOST, SinkTarget, run, webhook_delivery
from devkit.receiver import Received, Receiver, Reply


def deliver_all(*deliveries: PreparedDelivery) -> list[AttemptResult]:
    sink = WebhookSink(settings=get_settings())

    async def go() -> list[AttemptResult]:
        try:
            return [await sink.deliver(delivery) for delivery in deliveries]
        finally:
            await sink.close()

    return run(go())


@pytest.fixture
def scripted_receiver(ca, hook_dns: DnsServer):  # noqa: ANN001, ANN201
    from devkit.receiver import https_receiver

    actions: list[Any] = []

    def script(item: Received) -> Any:
        return actions.pop(0) if actions else Reply()

    with https_receiver(ca, (HOOK_HOST, REBIND_HOST), script) as state:
        state.actions = actions  # type: ignore[attr-defined]
        yield state


def url(receiver: Receiver, host: str = HOOK_HOST, path: str = "/hooks") -> str:
    return f"https://{host}:{receiver.port}{path}"


def test_signature_verifies_with_standardwebhooks(webhook_target: SinkTarget) -> None:
    """The request is a signed structured CloudEvent that the standardwebhooks library accepts."""
    secret = mint_signing_secret()
    delivery = webhook_target.delivery(secrets=(secret,))
    [result] = deliver_all(delivery)
    assert result.ok and result.status_code == 200
    request = webhook_target.extra["receiver"].received[-1]
    assert request.headers["content-type"] == "application/cloudevents+json"
    assert request.headers["user-agent"] == f"streaming-hub/{__version__}"
    assert request.headers["webhook-id"] == delivery.delivery_id
    assert request.headers["host"] == f"{HOOK_HOST}:{webhook_target.extra['receiver'].port}"
    Webhook(f"whsec_{secret}").verify(request.body, request.headers)
    assert webhook_target.extra["receiver"].server_names[-1] == HOOK_HOST  # SNI stays on the name


def test_rotation_overlap_signs_with_both_secrets(webhook_target: SinkTarget) -> None:
    """R-X-SEC-07: two signatures, current first; a receiver holding either secret verifies."""
    current, previous = mint_signing_secret(), mint_signing_secret()
    [result] = deliver_all(webhook_target.delivery(secrets=(current, previous)))
    assert result.ok
    request = webhook_target.extra["receiver"].received[-1]
    signatures = request.headers["webhook-signature"].split(" ")
    assert len(signatures) == 2 and all(s.startswith("v1,") for s in signatures)
    for secret in (current, previous):
        Webhook(f"whsec_{secret}").verify(request.body, request.headers)
    only_current = {**request.headers, "webhook-signature": signatures[0]}
    Webhook(f"whsec_{current}").verify(request.body, only_current)


def test_retries_keep_the_id_and_renew_the_timestamp(scripted_receiver: Receiver) -> None:
    """5xx then success: the same webhook-id on both tries, each try timestamped anew."""
    scripted_receiver.actions.extend([Reply(503), Reply(200)])  # type: ignore[attr-defined]
    first = webhook_delivery(url(scripted_receiver), delivery_id="job-1")
    retry = webhook_delivery(url(scripted_receiver), delivery_id="job-1", attempt=2, body=first.body,
                             secrets=first.signing_secrets)
    failed = deliver_all(first)[0]
    time.sleep(1.05)
    ok = deliver_all(retry)[0]
    assert (failed.ok, failed.error_class, failed.status_code) == (False, "http_5xx", 503)
    assert ok.ok
    one, two = scripted_receiver.received
    assert one.headers["webhook-id"] == two.headers["webhook-id"] == "job-1"
    assert int(two.headers["webhook-timestamp"]) > int(one.headers["webhook-timestamp"])


@pytest.mark.parametrize(("reply", "error_class", "terminal"), [
    (Reply(429, {"Retry-After": "7"}), ErrorClass.http_429, False),
    (Reply(410), ErrorClass.http_410, True),
    (Reply(302, {"Location": "https://elsewhere.example.test/"}), ErrorClass.redirect, False),
    (Reply(404), ErrorClass.http_4xx, False),
    (Reply(500), ErrorClass.http_5xx, False),
    (Reply(413), ErrorClass.payload_too_large, True),
])
def test_status_classes(scripted_receiver: Receiver, reply: Reply, error_class: ErrorClass, terminal: bool) -> None:
    """429 carries Retry-After; 410 and 413 end the job; a redirect is a failure and is not followed."""
    scripted_receiver.actions.append(reply)  # type: ignore[attr-defined]
    [result] = deliver_all(webhook_delivery(url(scripted_receiver)))
    assert (result.ok, result.error_class, result.status_code, result.terminal) == (
        False, error_class.value, reply.status, terminal)
    assert len(scripted_receiver.received) == 1  # nothing followed the redirect
    if reply.status == 429:
        assert result.retry_after_seconds == 7


def test_slow_past_the_timeout(scripted_receiver: Receiver) -> None:
    scripted_receiver.actions.append(("sleep", 2.0))  # type: ignore[attr-defined]
    [result] = deliver_all(webhook_delivery(url(scripted_receiver), timeout=0.5))
    assert (result.ok, result.error_class, result.status_code) == (False, "timeout", 0)
    assert "0.5" in result.detail


@pytest.mark.parametrize("action", ["reset", "reset_mid"])
def test_connection_reset(scripted_receiver: Receiver, action: str) -> None:
    scripted_receiver.actions.append(action)  # type: ignore[attr-defined]
    [result] = deliver_all(webhook_delivery(url(scripted_receiver)))
    assert (result.ok, result.error_class) == (False, "connection_reset")


def test_garbage_answer(scripted_receiver: Receiver) -> None:
    scripted_receiver.actions.append("garbage")  # type: ignore[attr-defined]
    [result, after] = deliver_all(webhook_delivery(url(scripted_receiver)), webhook_delivery(url(scripted_receiver)))
    assert (result.ok, result.error_class) == (False, "invalid_response")
    assert after.ok  # the broken connection was not reused


def test_oversized_answer_is_cut_and_not_reused(scripted_receiver: Receiver) -> None:
    """A 200 with a 4 MB body is a success; at most the bounded prefix is read, then the connection dropped."""
    scripted_receiver.actions.append(Reply(200, body=b"x" * (4 << 20)))  # type: ignore[attr-defined]
    big, after = deliver_all(webhook_delivery(url(scripted_receiver)), webhook_delivery(url(scripted_receiver)))
    assert big.ok and after.ok
    assert scripted_receiver.connections == 2


def test_keep_alive_reuses_one_connection(scripted_receiver: Receiver) -> None:
    results = deliver_all(*(webhook_delivery(url(scripted_receiver)) for _ in range(5)))
    assert all(r.ok for r in results)
    assert scripted_receiver.connections == 1


def test_tls_failure_for_a_name_the_certificate_lacks(scripted_receiver: Receiver, hook_dns: DnsServer) -> None:
    hook_dns.zone["other.example.test"] = [("A", "127.0.0.1")]
    [result] = deliver_all(webhook_delivery(url(scripted_receiver, "other.example.test")))
    assert (result.ok, result.error_class) == (False, "tls")


def test_dns_failure_and_blocked_names(scripted_receiver: Receiver) -> None:
    nx, private = deliver_all(webhook_delivery(url(scripted_receiver, "nx.example.test")),
                              webhook_delivery(url(scripted_receiver, "private.example.test")))
    assert (nx.error_class, nx.status_code) == ("dns", 0)
    assert (private.error_class, private.status_code) == ("endpoint_blocked", 0)
    assert scripted_receiver.received == []


def test_blocked_ip_literal(scripted_receiver: Receiver) -> None:
    [result] = deliver_all(webhook_delivery(f"https://10.1.2.3:{scripted_receiver.port}/hooks"))
    assert result.error_class == "endpoint_blocked"


def test_dns_rebinding_between_check_and_send(scripted_receiver: Receiver, hook_dns: DnsServer) -> None:
    """A name checked fine once, rebound to a private address: the next new connection is refused."""
    scripted_receiver.actions.append(Reply(200, {"Connection": "close"}))  # type: ignore[attr-defined]
    sink = WebhookSink(settings=get_settings())

    async def go() -> tuple[AttemptResult, AttemptResult]:
        try:
            first = await sink.deliver(webhook_delivery(url(scripted_receiver, REBIND_HOST)))
            hook_dns.zone[REBIND_HOST] = [("A", "10.0.0.7")]
            second = await sink.deliver(webhook_delivery(url(scripted_receiver, REBIND_HOST)))
            return first, second
        finally:
            await sink.close()

    first, second = run(go())
    assert first.ok
    assert (second.ok, second.error_class, second.status_code) == (False, "endpoint_blocked", 0)
    assert len(scripted_receiver.received) == 1

"""The RabbitMQ credential probe (hub.providers.rabbitmq.provider) on the hub's own AMQP client, against the real local
broker: each way a probe fails has its class and a detail naming the step (R-putSubscriptionCredential-*)."""

from __future__ import annotations

import socket
import uuid
from collections.abc import Iterator

import pytest

from hub.config import get_settings
from hub.providers.base import Access, ProbeTarget
from hub.providers.registry import provider_for
from hub.egress import DnsUnavailable
from hub.sinks.base import AttemptResult
from devkit.dnsserver import dns_server
from devkit.destinations import free_port

BROKER_NAME = "broker.example.test"


def _probe(uri: str, exchange: str) -> AttemptResult:
    target = ProbeTarget(subscription_id=uuid.uuid4(), tenant_id="t-probe", endpoint=f"{exchange}/orders.created",
                         timeout_seconds=5.0, signing_secrets=(), access=Access(credential={"uri": uri}))
    return provider_for("rabbitmq").probe(target, get_settings())


def _uri(*, scheme: str = "amqp", host: str = "127.0.0.1", port: int | None = None, password: str = "hub") -> str:
    from urllib.parse import urlsplit

    local = urlsplit(get_settings().rabbitmq_url)
    return f"{scheme}://{local.username}:{password}@{host}:{port or local.port}/%2F"


@pytest.fixture
def broker_dns(override_settings) -> Iterator[None]:
    """A loopback DNS server: the broker's name → 127.0.0.1, a rebinding name → a private address, one NXDOMAIN."""
    zone = {BROKER_NAME: [("A", "127.0.0.1")], "private.example.test": [("A", "10.0.0.1")],
            "nx.example.test": "NXDOMAIN"}
    with dns_server(zone) as server:
        override_settings(dns_nameservers=server.address, dns_timeout_seconds=0.5, egress_allow_cidrs="127.0.0.0/8")
        yield


def test_success_connects_to_the_address_the_guard_resolved(rabbit, broker_dns):
    """R-putSubscriptionCredential-02/04: a broker named by a host name the test's DNS server resolves is reached at
    the address the SSRF check returned; login and the passive declare succeed."""
    exchange, _ = rabbit.exchange_with_queue()
    result = _probe(_uri(host=BROKER_NAME), exchange)
    assert result.ok and result.error_class == "" and result.detail == "", result


@pytest.mark.parametrize("case, error_class, detail", [
    ("wrong_password", "auth_failed", "connect: the broker refused the credentials"),
    ("missing_exchange", "destination_missing", "exchange.declare (passive): the exchange does not exist"),
    ("refused", "connect_refused", "connect: connection refused"),
    ("tls_to_a_plain_port", "tls", "connect: the TLS handshake or certificate verification failed"),
])
def test_failures_are_classified(rabbit, broker_dns, case, error_class, detail):
    """R-putSubscriptionCredential-02/03, R-X-STATE-07: a refused login, an exchange that does not exist, a port
    nothing listens on, and amqps:// to a broker port that does not speak TLS each fail with their class and step."""
    exchange, _ = rabbit.exchange_with_queue()
    uri = _uri()
    if case == "wrong_password":
        uri = _uri(password="not-the-password")
    elif case == "missing_exchange":
        exchange = f"absent-{exchange}"
    elif case == "refused":
        uri = _uri(port=free_port())
    else:
        uri = _uri(scheme="amqps", host=BROKER_NAME)
    result = _probe(uri, exchange)
    assert (result.ok, result.error_class, result.detail) == (False, error_class, detail)


def test_a_broker_that_never_answers_is_a_timeout(broker_dns, override_settings):
    """R-putSubscriptionCredential-03, R-X-STATE-07: a listener that accepts the connection and never sends
    connection.start fails the probe as timeout at the connect step."""
    override_settings(rabbitmq_connect_timeout_seconds=0.5)
    with socket.socket() as silent:
        silent.bind(("127.0.0.1", 0))
        silent.listen(4)
        result = _probe(_uri(port=silent.getsockname()[1]), "anything")
    assert (result.ok, result.error_class, result.detail) == (False, "timeout", "connect: no answer in time")


def test_a_name_that_now_resolves_to_a_blocked_address_is_endpoint_blocked(broker_dns):
    """R-putSubscriptionCredential-09: the probe checks the broker host itself; a name resolving to a
    private address is endpoint_blocked and nothing is contacted."""
    result = _probe(_uri(host="private.example.test"), "anything")
    assert (result.ok, result.error_class) == (False, "endpoint_blocked") and "blocked" in result.detail


def test_a_name_that_does_not_resolve_raises_for_the_caller(broker_dns):
    """The probe leaves a failed lookup to its caller (which answers dns, as the credential PUT's own check does)."""
    with pytest.raises(DnsUnavailable):
        _probe(_uri(host="nx.example.test"), "anything")

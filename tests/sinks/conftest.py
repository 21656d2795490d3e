"""The shared sink contract suite's fixtures: one ``SinkTarget`` fixture per push kind, on its real service.

Webhooks go to a trustme HTTPS receiver, SQS queues and EventBridge buses to the moto server, RabbitMQ
exchanges to the local broker. The sink under test is the one the kind's provider names. Adding a kind
to the suite is one fixture named ``<kind>_target`` returning a :class:`SinkTarget`; ``SINK_KINDS`` is
every push kind in the provider registry.
"""

from __future__ import annotations

import asyncio
import json
import uuid
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

import pytest
import trustme

from hub.config import get_settings
from hub.providers.registry import kinds_where, provider_for
from hub.secrets import mint_signing_secret
from hub.sinks.base import PreparedDelivery, Sink
from hub.sinks.vocabulary import SinkKind
from devkit.dnsserver import DnsServer, dns_server
from devkit.destinations import (  # noqa: F401 (aws_destinations and rabbit are fixtures)
    STATIC_AWS, AwsDestinations, Rabbit, aws_destinations, delivery, free_port, rabbit, receive_all,
)
from devkit.receiver import Receiver, https_receiver

SINK_KINDS = list(kinds_where("is_push"))
HOOK_HOST = "hooks.example.test"
REBIND_HOST = "rebind.example.test"


def run(coro: Any) -> Any:
    return asyncio.run(coro)


def cloudevent(data: Any = None) -> tuple[bytes, dict[str, Any]]:
    attributes = {"specversion": "1.0", "id": str(uuid.uuid4()), "source": "ledger", "type": "transaction.posted",
                  "tenantid": "t-sinks", "datacontenttype": "application/json"}
    body = json.dumps({**attributes, "data": data if data is not None else {"amount": 12.5, "note": "héllo"}},
                      separators=(",", ":")).encode()
    return body, attributes


@dataclass
class SinkTarget:
    """A real destination of one kind, and deliveries aimed at it (or at a dead one of its kind)."""

    kind: SinkKind
    make_sink: Callable[[], Sink]
    delivery: Callable[..., PreparedDelivery]  # delivery(body=..., attributes=...) to the live destination
    down_delivery: Callable[..., PreparedDelivery]  # one to a destination of this kind that is down
    received: Callable[[int], list[bytes]]  # received(expected): what the live destination got, in order
    extra: dict[str, Any] = field(default_factory=dict)
    seen_as: Callable[[bytes], bytes] = lambda body: body  # a sent body as the destination shows it


@pytest.fixture(params=SINK_KINDS)
def sink_target(request: pytest.FixtureRequest) -> SinkTarget:
    return request.getfixturevalue(f"{request.param}_target")


@pytest.fixture(scope="session")
def ca() -> trustme.CA:
    return trustme.CA()


@pytest.fixture(scope="session")
def ca_bundle(ca: trustme.CA, tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("ca") / "ca.pem"
    ca.cert_pem.write_to_path(str(path))
    return path


@pytest.fixture
def hook_dns(override_settings: Callable[..., None], ca_bundle: Path) -> Iterator[DnsServer]:
    """A loopback DNS server naming the receivers; loopback allowed; the tests' CA trusted."""
    zone = {HOOK_HOST: [("A", "127.0.0.1")], REBIND_HOST: [("A", "127.0.0.1")], "private.example.test":
            [("A", "10.0.0.1")], "nx.example.test": "NXDOMAIN"}
    with dns_server(zone) as server:
        override_settings(dns_nameservers=server.address, dns_timeout_seconds=0.5,
                          egress_allow_cidrs="127.0.0.0/8", webhook_ca_bundle=str(ca_bundle))
        yield server


def webhook_delivery(url: str, *, body: bytes | None = None, secrets: tuple[str, ...] | None = None,
                     timeout: float = 5.0, delivery_id: str | None = None, attempt: int = 1) -> PreparedDelivery:
    if body is None:
        body, attributes = cloudevent()
    else:
        attributes = json.loads(body)
    return PreparedDelivery(
        delivery_id=delivery_id or str(uuid.uuid4()), job_id=None, tenant_id="t-sinks",
        subscription_id=uuid.uuid4(), sink_kind=SinkKind.webhook, endpoint=url, body=body,
        attributes={k: v for k, v in attributes.items() if k != "data"}, attempt=attempt,
        timeout_seconds=timeout, signing_secrets=secrets if secrets is not None else (mint_signing_secret(),))


@pytest.fixture
def receiver(ca: trustme.CA, hook_dns: DnsServer) -> Iterator[Receiver]:
    with https_receiver(ca, (HOOK_HOST, REBIND_HOST)) as state:
        yield state


@pytest.fixture
def webhook_target(receiver: Receiver) -> SinkTarget:
    from hub.providers.webhook.sink import WebhookSink
    from devkit.pg import free_port

    live = f"https://{HOOK_HOST}:{receiver.port}/hooks"
    dead = f"https://{HOOK_HOST}:{free_port()}/hooks"
    return SinkTarget(
        kind=SinkKind.webhook, make_sink=lambda: WebhookSink(settings=get_settings()),
        delivery=lambda **kw: webhook_delivery(live, **kw), down_delivery=lambda **kw: webhook_delivery(dead, **kw),
        received=lambda _expected: receiver.bodies(), extra={"receiver": receiver})


def _provider_sink(kind: SinkKind) -> Callable[[], Sink]:
    return lambda: provider_for(kind).sink_class()(settings=get_settings())


def _queue_delivery(kind: SinkKind, endpoint: str, credential: dict[str, Any]) -> Callable[..., PreparedDelivery]:
    def make(*, body: bytes | None = None) -> PreparedDelivery:
        sent = delivery(kind, endpoint, credential=credential)
        if body is None:
            return sent
        attributes = {name: value for name, value in json.loads(body).items() if name != "data"}
        return replace(sent, body=body, attributes=attributes)

    return make


@pytest.fixture
def queue_egress(override_settings, monkeypatch) -> None:
    """The local broker is on 127.0.0.1 (a private deployment's allow-list); the hub's AWS identity is a
    test key (moto accepts any)."""
    override_settings(egress_allow_cidrs="127.0.0.0/8")
    monkeypatch.setenv("AWS_ACCESS_KEY_ID", "testing")
    monkeypatch.setenv("AWS_SECRET_ACCESS_KEY", "testing")


@pytest.fixture
def sqs_target(aws_destinations: AwsDestinations, queue_egress: None) -> SinkTarget:
    queue = aws_destinations.queue()
    return SinkTarget(
        kind=SinkKind.sqs, make_sink=_provider_sink(SinkKind.sqs),
        delivery=_queue_delivery(SinkKind.sqs, queue, dict(STATIC_AWS)),
        down_delivery=_queue_delivery(SinkKind.sqs, queue + "-absent", dict(STATIC_AWS)),
        received=lambda expected: [m["Body"].encode() for m in receive_all(queue, expected)])


@pytest.fixture
def eventbridge_target(aws_destinations: AwsDestinations, queue_egress: None) -> SinkTarget:
    """A bus whose events are copied to a tap queue; the bus wraps each event (``detail`` is its data)."""
    bus, tap = aws_destinations.bus_with_tap()

    def detail_of(body: bytes) -> bytes:
        return json.dumps(json.loads(body)["data"], sort_keys=True).encode()

    return SinkTarget(
        kind=SinkKind.eventbridge, make_sink=_provider_sink(SinkKind.eventbridge),
        delivery=_queue_delivery(SinkKind.eventbridge, bus, dict(STATIC_AWS)),
        down_delivery=_queue_delivery(SinkKind.eventbridge, "absent-" + bus, dict(STATIC_AWS)),
        received=lambda expected: [json.dumps(json.loads(m["Body"])["detail"], sort_keys=True).encode()
                                   for m in receive_all(tap, expected)],
        seen_as=detail_of)


@pytest.fixture
def rabbitmq_target(rabbit: Rabbit, queue_egress: None) -> SinkTarget:
    """An exchange with a bound queue; the down one is a broker port nothing listens on."""
    exchange, queue = rabbit.exchange_with_queue("orders.created")
    live = {"uri": get_settings().rabbitmq_url}
    dead = {"uri": f"amqp://hub:hub@127.0.0.1:{free_port()}/%2F"}
    return SinkTarget(
        kind=SinkKind.rabbitmq, make_sink=_provider_sink(SinkKind.rabbitmq),
        delivery=_queue_delivery(SinkKind.rabbitmq, f"{exchange}/orders.created", live),
        down_delivery=_queue_delivery(SinkKind.rabbitmq, f"{exchange}/orders.created", dead),
        received=lambda _expected: [body for _props, body in rabbit.drain(queue)])

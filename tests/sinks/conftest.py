"""The shared sink contract suite's fixtures: one ``SinkTarget`` fixture per sink kind.

Adding a kind to the suite is one fixture named ``<kind>_target`` returning a :class:`SinkTarget`
and its name in ``SINK_KINDS``.
"""

from __future__ import annotations

import asyncio
import json
import uuid
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest
import trustme

from hub.config import get_settings
from hub.secrets import mint_signing_secret
from hub.sinks.base import PreparedDelivery, Sink
from hub.sinks.vocabulary import SinkKind
from tests.egress.dnsserver import DnsServer, dns_server
from tests.support.receiver import Receiver, https_receiver

SINK_KINDS = ["webhook"]
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
    received: Callable[[], list[bytes]]  # the bodies the live destination got, in order
    extra: dict[str, Any] = field(default_factory=dict)


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
    from hub.sinks.webhook import WebhookSink
    from tests.support.pg import free_port

    live = f"https://{HOOK_HOST}:{receiver.port}/hooks"
    dead = f"https://{HOOK_HOST}:{free_port()}/hooks"
    return SinkTarget(
        kind=SinkKind.webhook, make_sink=lambda: WebhookSink(settings=get_settings()),
        delivery=lambda **kw: webhook_delivery(live, **kw), down_delivery=lambda **kw: webhook_delivery(dead, **kw),
        received=receiver.bodies, extra={"receiver": receiver})

"""The Python client (clients/python) against a live hub: `hub api`, `hub ingest` and `hub deliver` as real
processes, a webhook receiver over HTTPS, and the client's own calls: create, ping, publish, page the
delivery log, resend, read health, pull; idempotency keys and problems as the hand-written layer makes
them; a delivery verified with the subscription's secrets through a rotation (N73)."""

from __future__ import annotations

import time
import uuid
from collections.abc import Callable, Iterator
from contextlib import ExitStack
from dataclasses import dataclass
from datetime import UTC, datetime

import httpx
import pytest
import trustme

from devkit.live import live_api
from devkit.processes import hub_process
from devkit.receiver import Receiver, https_receiver
from hub.auth.tokens import mint_token
from hub.secrets import mint_signing_secret
from streaming_hub import HubProblem, WebhookReceiver, WebhookVerificationError, connect, new_key
from streaming_hub_client.api.deliveries import list_subscription_deliveries, resend_subscription_delivery
from streaming_hub_client.api.event_delivery import pull_events
from streaming_hub_client.api.event_publisher import publish_event
from streaming_hub_client.api.subscriptions import (
    create_subscription, get_subscription, get_subscription_health, ping_subscription, rotate_subscription_secret,
)
from streaming_hub_client.models import (
    CreateSubscriptionRequest, PublishEventRequest, PublisherEvent, PublisherEventMessage, SinkKind,
)
from tests.conftest import ALL_PERMISSIONS
from tests.publisher.conftest import publisher_token

EVENT_TYPE = "client.checked"


@dataclass
class Live:
    base: str
    receiver: Receiver
    tenant: str

    def hub(self):  # noqa: ANN201
        return connect(self.base, mint_token(tenant=self.tenant, permissions=ALL_PERMISSIONS))

    def hooks(self, path: str) -> list:
        return [item for item in self.receiver.received if item.path == path]


def wait_for(check: Callable[[], object], timeout: float = 30.0):  # noqa: ANN201
    deadline = time.monotonic() + timeout
    while not (found := check()):
        assert time.monotonic() < deadline, "timed out"
        time.sleep(0.1)
    return found


@pytest.fixture(scope="module")
def live(tmp_path_factory) -> Iterator[Live]:  # noqa: ANN001
    ca = trustme.CA()
    bundle = tmp_path_factory.mktemp("ca") / "ca.pem"
    ca.cert_pem.write_to_path(str(bundle))
    prefix = f"cl{uuid.uuid4().hex[:8]}."
    env = {"HUB_KAFKA_TOPIC_PREFIX": prefix, "HUB_KAFKA_CONSUMER_GROUP": f"ingest-{prefix}",
           "HUB_WEBHOOK_CA_BUNDLE": str(bundle), "HUB_EGRESS_ALLOW_CIDRS": "127.0.0.0/8",
           "HUB_DELIVER_IDLE_POLL_SECONDS": "0.05", "HUB_LOG_LEVEL": "WARNING"}
    with https_receiver(ca, ("127.0.0.1",)) as receiver, ExitStack() as processes:
        processes.enter_context(hub_process("ingest", env))
        processes.enter_context(hub_process("deliver", env))
        base = processes.enter_context(live_api(env))
        yield Live(base, receiver, f"t-{uuid.uuid4().hex[:12]}")


def create_webhook(live: Live, hub, path: str, key: str | None = None, name: str = ""):  # noqa: ANN001, ANN201
    body = CreateSubscriptionRequest(name=name or f"client-{uuid.uuid4().hex[:6]}", sink_kind=SinkKind.WEBHOOK,
                                     endpoint=f"https://127.0.0.1:{live.receiver.port}{path}", event_types=[EVENT_TYPE])
    return create_subscription.sync(client=hub, body=body, x_idempotency=key or new_key())


def publish(live: Live, n: int) -> None:
    publisher = connect(live.base, publisher_token(live.tenant))
    event = PublisherEvent(event_type=EVENT_TYPE, message=PublisherEventMessage.from_dict({"n": n}),
                           occurred_at=datetime.now(UTC))
    publish_event.sync(client=publisher, body=PublishEventRequest(event=event))


def test_a_first_delivery_and_what_follows(live: Live) -> None:
    hub = live.hub()
    created = create_webhook(live, hub, "/first")
    sub = created.subscription.id
    probe = ping_subscription.sync(sub, client=hub)
    assert (probe.outcome, probe.status_code) == ("ok", 200)
    inbox = create_subscription.sync(client=hub, x_idempotency="", body=CreateSubscriptionRequest(
        name="client-inbox", sink_kind=SinkKind.PULL, event_types=[EVENT_TYPE]))  # "": the transport's key
    for n in range(3):
        publish(live, n)
    wait_for(lambda: len(live.hooks("/first")) >= 4)  # the probe, then the three events
    verifier = WebhookReceiver([created.signing_secret])
    assert sorted(verifier.verify(item.body, item.headers)["data"]["n"] for item in live.hooks("/first")[1:]) == [0, 1, 2]

    first = wait_for(lambda: (page := list_subscription_deliveries.sync(sub, client=hub, limit=2)).deliveries
                     and len(page.deliveries) == 2 and page)
    rest = list_subscription_deliveries.sync(sub, client=hub, limit=2, after=first.next_cursor)
    jobs = [job.id for job in first.deliveries + rest.deliveries]
    assert len(jobs) == len(set(jobs)) == 3

    resent = resend_subscription_delivery.sync(sub, jobs[0], client=hub, x_idempotency=new_key())
    assert resent.delivery.id != jobs[0]
    wait_for(lambda: len(live.hooks("/first")) >= 5)
    health = wait_for(lambda: (found := get_subscription_health.sync(sub, client=hub)).last_success_at and found)
    assert health.subscription_id == sub and health.enabled
    pulled = wait_for(lambda: pull_events.sync(client=hub, subscription_id=inbox.subscription.id).events)
    assert sorted(event.payload["n"] for event in pulled) == [0, 1, 2]


def test_a_receiver_verifies_with_either_secret_during_a_rotation(live: Live) -> None:
    hub = live.hub()
    created = create_webhook(live, hub, "/rotated")
    rotated = rotate_subscription_secret.sync(created.subscription.id, client=hub, x_idempotency=new_key())
    old, new = created.signing_secret, rotated.signing_secret
    assert old != new and rotated.overlap_until > datetime.now(UTC)
    ping_subscription.sync(created.subscription.id, client=hub)
    [probe] = wait_for(lambda: live.hooks("/rotated"))
    for secrets in ([old], [new], [old, new], [mint_signing_secret(), new]):
        WebhookReceiver(secrets).verify(probe.body, probe.headers, json_parse=False)
    with pytest.raises(WebhookVerificationError):
        WebhookReceiver([mint_signing_secret()]).verify(probe.body, probe.headers)
    with pytest.raises(WebhookVerificationError):  # one byte changed
        WebhookReceiver([old, new]).verify(probe.body + b" ", probe.headers)


def test_one_key_one_subscription_and_errors_as_problems(live: Live) -> None:
    hub, key = live.hub(), new_key()
    first, again = (create_webhook(live, hub, "/same", key, "client-same") for _ in range(2))
    assert again.subscription.id == first.subscription.id  # the hub replayed the first answer
    with pytest.raises(HubProblem) as conflict:  # the same key with another body
        create_webhook(live, hub, "/same", key, "client-other")
    assert (conflict.value.status, conflict.value.code) == (409, "idempotency_conflict")
    with pytest.raises(HubProblem) as missing:
        get_subscription.sync(uuid.uuid4(), client=hub)
    assert missing.value.status == 404 and missing.value.code
    token = mint_token(tenant=live.tenant, permissions=ALL_PERMISSIONS)
    bare = httpx.post(f"{live.base}/v1/subscriptions/{first.subscription.id}/secret/rotate",
                      headers={"Authorization": f"Bearer {token}"}, timeout=30)
    assert bare.status_code == 400 and bare.json()["code"] == "missing_idempotency_key"  # without the layer

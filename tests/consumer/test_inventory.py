"""The durable-queue inventory (``GET /v1/durable-queues/{id}``, N76) over a live gRPC stream: the
deliveries a stream holds show as unacknowledged, its consumer as attached, and both go as it settles
and leaves (the stream runs in ``hub grpc``, the inventory in ``hub api``: the holds cross processes)."""

from __future__ import annotations

import time
from typing import Any

import httpx

from hub.auth.tokens import mint_token
from hub.consumer.access import consumer_claims
from tests.consumer.conftest import ConsumerHub, pb, unique
from tests.consumer.streams import events_of
from tests.consumer.test_durable_grpc import create, uploads_group, with_acks


def state(hub: ConsumerHub, token: str, queue_id: str) -> dict[str, Any]:
    answer = httpx.get(f"{hub.rest}/v1/durable-queues/{queue_id}", headers={"Authorization": f"Bearer {token}"},
                       timeout=30)
    assert answer.status_code == 200, answer.text
    return answer.json()["queue"]


def eventually(hub: ConsumerHub, token: str, queue_id: str, **expected: Any) -> dict[str, Any]:
    deadline = time.monotonic() + 20
    while True:
        queue = state(hub, token, queue_id)
        if all(queue[name] == value for name, value in expected.items()):
            return queue
        assert time.monotonic() < deadline, (expected, queue)
        time.sleep(0.3)


def test_held_deliveries_show_as_unacknowledged_until_acked(consumer_hub: ConsumerHub, stub: Any,
                                                            tenant: str) -> None:
    token = mint_token(tenant=tenant, permissions=consumer_claims([], None)[0])
    kind = unique("myapp.file.uploaded")
    queue_id = create(stub, token, unique("q"), [uploads_group(kind)]).queue_id
    for name in ("a", "b"):
        consumer_hub.publish(tenant, kind, {"file": name}, f"/uploads/{name}")
    eventually(consumer_hub, token, queue_id, depth=2, consumers=0, unacknowledged=0)
    requests, reader = with_acks(stub, token, queue_id)
    delivered = events_of(reader, 2)
    held = eventually(consumer_hub, token, queue_id, unacknowledged=2, consumers=1, depth=0)
    assert held["idle_expires_at"] is None
    requests.send(pb.ConsumeDurableEventsWithAcksRequest(ack_delivery_tags=[d.delivery_tag for d, _ in delivered]))
    eventually(consumer_hub, token, queue_id, unacknowledged=0, consumers=1)
    reader.close()
    left = eventually(consumer_hub, token, queue_id, consumers=0, depth=0)
    assert left["idle_expires_at"] is not None

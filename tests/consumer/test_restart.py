"""RabbitMQ restarted under durable consumption with acks (a private node, so the shared broker stays up):
the stream ends with the seed's broker-cancelled INTERNAL status, the client reconnects, no acked
message comes back and no unacked one is lost; events stored while the broker was down arrive after."""

from __future__ import annotations

import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import grpc
import pytest

from hub.consumer.errors import BROKER_CANCELLED
from tests.consumer.conftest import ConsumerHub, consumer_processes, consumer_token, pb, unique
from tests.consumer.streams import events_of
from tests.consumer.test_durable_grpc import create, with_acks
from devkit.rabbit_node import RabbitNode, private_rabbit, rabbitmq_sbin

pytestmark = pytest.mark.slow


@pytest.fixture(scope="module")
def node(tmp_path_factory: pytest.TempPathFactory) -> Iterator[RabbitNode]:
    if rabbitmq_sbin() is None:
        pytest.skip("rabbitmq-server is not installed")
    with private_rabbit(Path(tmp_path_factory.mktemp("rabbit"))) as started:
        yield started


@pytest.fixture(scope="module")
def consumer_hub(node: RabbitNode) -> Iterator[ConsumerHub]:
    with consumer_processes(HUB_RABBITMQ_URL=node.url) as hub:
        yield hub


def reconnect(stub: Any, token: str, queue_id: str, deadline: float) -> tuple[Any, Any]:
    """Open the acks stream again, retrying while the broker is still coming back (UNAVAILABLE)."""
    while True:
        requests, reader = with_acks(stub, token, queue_id)
        try:
            return requests, (reader, events_of(reader, 1, timeout=5))
        except (grpc.RpcError, AssertionError):
            reader.close()
            if time.monotonic() > deadline:
                raise
            time.sleep(1)


def test_restart_loses_no_unacked_and_returns_no_acked(consumer_hub: ConsumerHub, node: RabbitNode, stub: Any,
                                                       tenant: str) -> None:
    token, kind = consumer_token(tenant), unique("myapp.restart")
    queue_id = create(stub, token, unique("q"), [pb.FilterGroup(event_type=kind)]).queue_id
    for n in range(10):
        consumer_hub.publish(tenant, kind, {"n": n})
    requests, reader = with_acks(stub, token, queue_id)
    received = events_of(reader, 10)
    acked = {int(event.message["n"]) for _, event in received[:5]}
    requests.send(pb.ConsumeDurableEventsWithAcksRequest(ack_delivery_tags=[r.delivery_tag for r, _ in received[:5]]))
    time.sleep(1.0)  # the acks reach the broker before it goes away
    node.stop_app()
    error = reader.ended(timeout=30)
    assert error.code() is grpc.StatusCode.INTERNAL and error.details() == BROKER_CANCELLED
    consumer_hub.publish(tenant, kind, {"n": 10})  # stored while the broker is down
    node.start_app()
    requests, (reader, first) = reconnect(stub, token, queue_id, time.monotonic() + 60)
    seen = first + events_of(reader, 5, timeout=60)
    numbers = [int(event.message["n"]) for _, event in seen]
    assert not acked & set(numbers), "an acknowledged message came back"
    assert set(numbers) == set(range(5, 11))
    requests.send(pb.ConsumeDurableEventsWithAcksRequest(ack_delivery_tags=[r.delivery_tag for r, _ in seen]))
    assert reader.quiet(1.5) == []
    reader.close()

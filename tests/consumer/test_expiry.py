"""The durable idle expiry with a short window: only an attached consumer keeps a durable queue alive;
an idle one is deleted with its messages, and CreateDurableQueue with the same id brings it back."""

from __future__ import annotations

import time
from collections.abc import Iterator
from typing import Any

import grpc
import pytest

from tests.consumer.conftest import ConsumerHub, consumer_processes, consumer_token, metadata, pb, unique
from tests.consumer.streams import Reader, events_of
from tests.consumer.test_durable_grpc import create, with_acks

IDLE_SECONDS = 3


@pytest.fixture(scope="module")
def consumer_hub() -> Iterator[ConsumerHub]:
    with consumer_processes(HUB_CONSUMER_DURABLE_IDLE_SECONDS=str(IDLE_SECONDS)) as hub:
        yield hub


def test_an_idle_durable_queue_is_deleted_with_its_messages(consumer_hub: ConsumerHub, stub: Any,
                                                             tenant: str) -> None:
    token, kind, queue_id = consumer_token(tenant), unique("myapp.idle"), unique("myapp-idle-queue")
    groups = [pb.FilterGroup(event_type=kind)]
    create(stub, token, queue_id, groups)
    consumer_hub.publish(tenant, kind, {"n": "kept?"})
    time.sleep(IDLE_SECONDS + 3)
    _, reader = with_acks(stub, token, queue_id)
    assert reader.ended().code() is grpc.StatusCode.NOT_FOUND
    assert create(stub, token, queue_id, groups).created  # recreated from the same id and filters: empty
    _, reader = with_acks(stub, token, queue_id)
    assert reader.quiet(1.5) == []
    consumer_hub.publish(tenant, kind, {"n": "after"})
    (_, event), = events_of(reader, 1)
    assert event.message["n"] == "after"
    reader.close()


def test_an_attached_consumer_keeps_a_durable_queue(consumer_hub: ConsumerHub, stub: Any, tenant: str) -> None:
    token, kind = consumer_token(tenant), unique("myapp.busy")
    queue_id = create(stub, token, unique("q"), [pb.FilterGroup(event_type=kind)]).queue_id
    _, reader = with_acks(stub, token, queue_id)
    time.sleep(IDLE_SECONDS * 2 + 2)
    consumer_hub.publish(tenant, kind, {"n": 1})
    (_, event), = events_of(reader, 1)
    assert event.message["n"] == 1
    reader.close()
    again = Reader(stub.ConsumeDurableEvents(pb.ConsumeDurableEventsRequest(queue_id=queue_id),
                                             metadata=metadata(token)))
    assert again.next().events[0].message["n"] == 1  # the queue stayed, and the unacked event came back
    again.close()

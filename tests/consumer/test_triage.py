"""Dead-letter triage: a message past its delivery budget reaches the dead-letter queue with its reason,
and an operator's session replays (confirm-gated), discards or leaves it, one outcome per action."""

from __future__ import annotations

import os
from datetime import UTC, datetime
from typing import Any

import grpc
import pytest

from hub.consumer.triage import Reason, death_of
from tests.consumer.conftest import DELIVERY_LIMIT, ConsumerHub, consumer_token, metadata, operator_token, pb, unique
from tests.consumer.streams import Reader, Requests, events_of
from tests.consumer.test_durable_grpc import create, with_acks

Request = pb.ManageDeadLetteredEventsRequest
Browsed = pb.ManageDeadLetteredEventsResponse.DeadLetteredEvent
Outcome = pb.ManageDeadLetteredEventsResponse.ActionOutcome


def exhaust(stub: Any, token: str, queue_id: str) -> Any:
    """Nack the queue's one message until its delivery budget is spent; the last event seen."""
    requests, reader = with_acks(stub, token, queue_id)
    for _ in range(DELIVERY_LIMIT):
        (response, event), = events_of(reader, 1)
        requests.send(pb.ConsumeDurableEventsWithAcksRequest(nack_delivery_tags=[response.delivery_tag]))
    assert reader.quiet(1.5) == []  # dead-lettered, not redelivered
    reader.close()
    return event


class Triage:
    """One operator session; ``find`` browses until a message of the given origin queue shows up."""

    def __init__(self, stub: Any) -> None:
        self.requests = Requests(Request())
        self.reader = Reader(stub.ManageDeadLetteredEvents(iter(self.requests), metadata=metadata(operator_token())))

    def find(self, origin_queue: str) -> Any:
        while True:
            response = self.reader.next()
            if response.WhichOneof("payload") == "dead_lettered_event" and \
                    response.dead_lettered_event.origin_queue == origin_queue:
                return response.dead_lettered_event

    def act(self, tag: int, action: int) -> Any:
        self.requests.send(Request(actions=[Request.ActionEntry(delivery_tag=tag, action=action)]))
        while True:
            response = self.reader.next()
            if response.WhichOneof("payload") == "action_outcome":
                assert response.action_outcome.delivery_tag == tag
                return response.action_outcome

    def close(self) -> None:
        self.requests.finish()
        self.reader.close()


def test_replay_discard_leave_and_unknown_tags(consumer_hub: ConsumerHub, stub: Any, tenant: str) -> None:
    token, kind = consumer_token(tenant), unique("myapp.poison")
    queue_id = create(stub, token, unique("q"), [pb.FilterGroup(event_type=kind)]).queue_id
    consumer_hub.publish(tenant, kind, {"n": 1}, "/orders/7")
    exhaust(stub, token, queue_id)
    triage = Triage(stub)
    found = triage.find(queue_id)
    assert found.reason == Browsed.REASON_DELIVERY_LIMIT and found.delivery_count >= DELIVERY_LIMIT
    assert (found.event.event_type, found.resource_id, found.event.message["n"]) == (kind, "/orders/7", 1)
    assert abs(found.dead_lettered_at.ToDatetime(tzinfo=UTC) - datetime.now(UTC)).total_seconds() < 120
    assert triage.act(found.delivery_tag, Request.ACTION_LEAVE).outcome == Outcome.OUTCOME_LEFT
    assert triage.act(found.delivery_tag, Request.ACTION_REPLAY).outcome == Outcome.OUTCOME_REPLAYED
    assert triage.act(found.delivery_tag, Request.ACTION_DISCARD).outcome == Outcome.OUTCOME_UNSPECIFIED
    assert triage.act(12345, Request.ACTION_DISCARD).outcome == Outcome.OUTCOME_UNSPECIFIED
    triage.close()
    exhaust(stub, token, queue_id)  # the replayed copy is back in its queue, with a fresh budget
    triage = Triage(stub)
    again = triage.find(queue_id)
    assert triage.act(again.delivery_tag, Request.ACTION_DISCARD).outcome == Outcome.OUTCOME_DISCARDED
    triage.close()


def test_replay_to_a_deleted_queue_keeps_the_copy(consumer_hub: ConsumerHub, stub: Any, tenant: str) -> None:
    token, kind = consumer_token(tenant), unique("myapp.orphan")
    queue_id = create(stub, token, unique("q"), [pb.FilterGroup(event_type=kind)]).queue_id
    consumer_hub.publish(tenant, kind, {"n": 2})
    exhaust(stub, token, queue_id)
    stub.DeleteDurableQueue(pb.DeleteDurableQueueRequest(queue_id=queue_id), metadata=metadata(token))
    triage = Triage(stub)
    found = triage.find(queue_id)
    outcome = triage.act(found.delivery_tag, Request.ACTION_REPLAY)
    assert outcome.outcome == Outcome.OUTCOME_ORIGIN_QUEUE_DELETED and queue_id in outcome.detail
    triage.close()
    triage = Triage(stub)  # still there in the next session
    kept = triage.find(queue_id)
    assert triage.act(kept.delivery_tag, Request.ACTION_DISCARD).outcome == Outcome.OUTCOME_DISCARDED
    triage.close()


def test_triage_needs_the_operator_permission(stub: Any, tenant: str) -> None:
    reader = Reader(stub.ManageDeadLetteredEvents(iter([Request()]), metadata=metadata(consumer_token(tenant))))
    assert reader.ended().code() is grpc.StatusCode.PERMISSION_DENIED


@pytest.mark.parametrize(("reason", "expected"), [("delivery_limit", Reason.DELIVERY_LIMIT),
                                                  ("expired", Reason.EXPIRED), ("maxlen", Reason.MAXLEN),
                                                  ("rejected", Reason.UNSPECIFIED)])
def test_reason_and_origin_come_from_the_newest_death(reason: str, expected: Reason) -> None:
    moment = datetime(2026, 1, 2, 3, 4, 5)
    headers = {"x-death": [{"reason": reason, "queue": "hub.cq.new", "time": moment},
                           {"reason": "expired", "queue": "hub.cq.old", "time": moment}]}
    assert death_of(headers) == (expected, "hub.cq.new", moment.replace(tzinfo=UTC))


def test_an_unconfirmed_replay_keeps_the_copy(consumer_hub: ConsumerHub, stub: Any, tenant: str) -> None:
    """The origin queue refuses the replay (replaced, as an operator might, by one that rejects publishes):
    the broker nacks it, the outcome is REPLAY_FAILED and the dead-letter copy stays."""
    import pika

    token, kind = consumer_token(tenant), unique("myapp.refused")
    queue_id = create(stub, token, unique("q"), [pb.FilterGroup(event_type=kind)]).queue_id
    consumer_hub.publish(tenant, kind, {"n": 3})
    exhaust(stub, token, queue_id)
    connection = pika.BlockingConnection(pika.URLParameters(os.environ["HUB_RABBITMQ_URL"]))
    channel = connection.channel()
    channel.queue_delete(f"hub.cq.{queue_id}")
    channel.queue_declare(f"hub.cq.{queue_id}", durable=True,
                          arguments={"x-max-length": 0, "x-overflow": "reject-publish"})
    try:
        triage = Triage(stub)
        found = triage.find(queue_id)
        assert triage.act(found.delivery_tag, Request.ACTION_REPLAY).outcome == Outcome.OUTCOME_REPLAY_FAILED
        triage.close()
        triage = Triage(stub)
        kept = triage.find(queue_id)
        assert triage.act(kept.delivery_tag, Request.ACTION_DISCARD).outcome == Outcome.OUTCOME_DISCARDED
        triage.close()
    finally:
        channel.queue_delete(f"hub.cq.{queue_id}")
        connection.close()

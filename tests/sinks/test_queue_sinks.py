"""The shared sink cases for the three queue kinds, on real destinations (moto server, local RabbitMQ).

Each message received is read back and compared field by field with the CloudEvent that was sent.
"""

from __future__ import annotations

import asyncio
import hashlib
import json
from collections.abc import Iterator
from dataclasses import replace
from typing import Any

import pytest

from hub.config import get_settings
from hub.sinks.base import AttemptResult, PreparedDelivery
from hub.providers.eventbridge.sink import EventBridgeSink
from hub.providers.rabbitmq.sink import RabbitMQSink
from hub.providers.sqs.sink import SqsSink, fifo_ids
from hub.sinks.vocabulary import ErrorClass, SinkKind
from devkit.destinations import (  # noqa: F401 (aws_destinations and rabbit are fixtures)
    STATIC_AWS, AwsDestinations, Rabbit, authenticating_moto, aws_destinations, delivery, free_port, rabbit,
    receive_all,
)

KINDS = [SinkKind.sqs, SinkKind.rabbitmq, SinkKind.eventbridge]
SINKS = {SinkKind.sqs: SqsSink, SinkKind.rabbitmq: RabbitMQSink, SinkKind.eventbridge: EventBridgeSink}


@pytest.fixture(autouse=True)
def _loopback_broker(override_settings, monkeypatch) -> None:
    """The local broker is on 127.0.0.1 (a private deployment's allow-list); the hub's AWS identity is a
    test key (moto accepts any)."""
    override_settings(egress_allow_cidrs="127.0.0.0/8")
    monkeypatch.setenv("AWS_ACCESS_KEY_ID", "testing")
    monkeypatch.setenv("AWS_SECRET_ACCESS_KEY", "testing")


@pytest.fixture
def private_moto() -> Iterator[str]:
    with authenticating_moto() as url:
        yield url


class Target:
    """One kind's destination for a test: where to send, with what, and how to read messages back."""

    def __init__(self, kind: SinkKind, aws_destinations: AwsDestinations, rabbit: Rabbit) -> None:
        self.kind = kind
        self._rabbit = rabbit
        if kind is SinkKind.sqs:
            self.endpoint = self._tap = aws_destinations.queue()
            self.credential: dict[str, Any] = dict(STATIC_AWS)
        elif kind is SinkKind.eventbridge:
            self.endpoint, self._tap = aws_destinations.bus_with_tap()
            self.credential = dict(STATIC_AWS)
        else:
            exchange, self._queue = rabbit.exchange_with_queue("orders.created")
            self.endpoint = f"{exchange}/orders.created"
            self.credential = {"uri": get_settings().rabbitmq_url}

    def delivery(self, index: int = 0, **overrides: Any) -> PreparedDelivery:
        return delivery(self.kind, overrides.pop("endpoint", self.endpoint),
                        credential=overrides.pop("credential", self.credential), index=index, **overrides)

    def missing(self) -> str:
        """The same kind of endpoint naming a queue, exchange or bus that does not exist."""
        if self.kind is SinkKind.sqs:
            return self.endpoint + "-absent"
        if self.kind is SinkKind.eventbridge:
            return "absent-" + self.endpoint
        return "absent-" + self.endpoint

    def received(self, expected: int) -> list[dict[str, Any]]:
        """What arrived, as {"event": the JSON seen, "meta": attributes/properties as strings}."""
        if self.kind is SinkKind.rabbitmq:
            return [{"event": json.loads(body), "meta": dict(props.headers or {}), "props": props}
                    for props, body in self._rabbit.drain(self._queue)]
        messages = receive_all(self._tap, expected)
        return [{"event": json.loads(m["Body"]), "meta": {name: value["StringValue"]
                                                          for name, value in m.get("MessageAttributes", {}).items()},
                 "attributes": m.get("Attributes", {})} for m in messages]


def run(coroutine: Any) -> Any:
    return asyncio.run(coroutine)


async def _send(kind: SinkKind, deliveries: list[PreparedDelivery], **settings_update: Any) -> list[AttemptResult]:
    sink = SINKS[kind](settings=get_settings().model_copy(update=settings_update))
    try:
        return await sink.deliver_many(deliveries)
    finally:
        await sink.close()


def assert_same_event(kind: SinkKind, sent: PreparedDelivery, got: dict[str, Any]) -> None:
    """The received message is the CloudEvent sent, field by field, in the kind's mapping."""
    original = json.loads(sent.body)
    if kind is SinkKind.eventbridge:
        envelope = got["event"]
        assert envelope["source"] == original["source"]
        assert envelope["detail-type"] == original["type"]
        assert envelope["detail"] == original["data"]
        return
    assert got["event"] == original
    prefix = "ce_" if kind is SinkKind.sqs else "cloudEvents_"
    for name, value in sent.attributes.items():
        if f"{prefix}{name}" in got["meta"] or kind is SinkKind.rabbitmq:
            assert got["meta"][f"{prefix}{name}"] == str(value), name
    if kind is SinkKind.rabbitmq:
        props = got["props"]
        assert props.delivery_mode == 2 and props.message_id == sent.delivery_id
        assert props.content_type.startswith("application/cloudevents+json")


@pytest.mark.parametrize("kind", KINDS)
def test_success_arrives_field_by_field(kind, aws_destinations, rabbit):
    """Shared sink case: success. Every delivery of a batch arrives once and equals the CloudEvent."""
    target = Target(kind, aws_destinations, rabbit)
    sent = [target.delivery(index) for index in range(13)]
    results = run(_send(kind, sent))
    assert all(result.ok and result.error_class == "" for result in results), results
    got = target.received(len(sent))
    assert len(got) == len(sent)
    by_id = {(g["event"]["id"] if kind is not SinkKind.eventbridge else g["event"]["detail"]["order"]): g
             for g in got}
    for index, item in enumerate(sent):
        key = item.attributes["id"] if kind is not SinkKind.eventbridge else index
        assert_same_event(kind, item, by_id[key])


def test_sqs_attributes_and_fifo_group(aws_destinations):
    """SQS: CloudEvent attributes as `ce_` message attributes (at most 10, SQS's limit); on a FIFO queue
    partitionkey is the MessageGroupId and the CloudEvent id the MessageDeduplicationId (a retry is dropped)."""
    queue = aws_destinations.queue(fifo=True, ContentBasedDeduplication="false")
    first = delivery(SinkKind.sqs, queue, credential=dict(STATIC_AWS), partition_key="order-42")
    results = run(_send(SinkKind.sqs, [first, first]))
    assert [r.ok for r in results] == [True, True]
    messages = receive_all(queue, 2, rounds=3)
    assert len(messages) == 1  # the retry of the same event was deduplicated
    attributes = messages[0]["MessageAttributes"]
    assert len(attributes) == 10
    assert messages[0]["Attributes"]["MessageGroupId"] == "order-42"
    assert messages[0]["Attributes"]["MessageDeduplicationId"] == first.attributes["id"]
    for name in ("specversion", "id", "source", "type", "time", "tenantid", "schemaversion", "partitionkey"):
        assert attributes[f"ce_{name}"]["StringValue"] == str(first.attributes[name])


def test_sqs_fifo_groups_an_ordered_job_by_its_key(aws_destinations):
    """N78: an ordered job's key is its MessageGroupId (whatever the partition key); ids SQS would refuse
    (over 128 characters, or outside ASCII punctuation) go as their SHA-256."""
    queue = aws_destinations.queue(fifo=True, ContentBasedDeduplication="false")
    ordered = replace(delivery(SinkKind.sqs, queue, credential=dict(STATIC_AWS), partition_key="p"),
                      ordering_key="account 7 é")
    [result] = run(_send(SinkKind.sqs, [ordered]))
    assert result.ok, result
    [message] = receive_all(queue, 1, rounds=3)
    assert message["Attributes"]["MessageGroupId"] == hashlib.sha256("account 7 é".encode()).hexdigest()
    assert fifo_ids(replace(ordered, ordering_key="acct-7"))["MessageGroupId"] == "acct-7"
    assert fifo_ids(replace(ordered, ordering_key=None))["MessageGroupId"] == "p"


@pytest.mark.parametrize("kind", KINDS)
def test_destination_down_is_connect_refused(kind, aws_destinations, rabbit):
    """Shared sink case: destination down → connect_refused, retryable (not terminal)."""
    target = Target(kind, aws_destinations, rabbit)
    port = free_port()
    if kind is SinkKind.rabbitmq:
        item = target.delivery(credential={"uri": f"amqp://hub:hub@127.0.0.1:{port}/%2F"})
        [result] = run(_send(kind, [item]))
    else:
        [result] = run(_send(kind, [target.delivery()], aws_endpoint_url=f"http://127.0.0.1:{port}"))
    assert not result.ok and result.error_class == ErrorClass.connect_refused and not result.terminal


@pytest.mark.parametrize("kind", KINDS)
def test_missing_queue_exchange_or_bus(kind, aws_destinations, rabbit):
    """Shared sink case: the queue, exchange or bus does not exist → destination_missing; the detail names the
    failed step (and the AWS error code). The sink recovers for the next delivery (a new channel)."""
    target = Target(kind, aws_destinations, rabbit)
    missing, present = target.delivery(endpoint=target.missing()), target.delivery(1)
    missing_result, present_result = run(_send(kind, [missing, present]))
    assert missing_result.error_class == ErrorClass.destination_missing and not missing_result.terminal
    if kind is not SinkKind.rabbitmq:
        assert ("NonExistentQueue" if kind is SinkKind.sqs else "ResourceNotFoundException") in missing_result.detail
    assert present_result.ok
    assert_same_event(kind, present, target.received(1)[0])


@pytest.mark.parametrize("kind", KINDS)
def test_wrong_credentials(kind, aws_destinations, rabbit, private_moto):
    """Shared sink case: the destination refuses the credential → auth_failed. RabbitMQ: a wrong password on
    the local broker. AWS kinds: a private moto server with authentication on (the shared one accepts any key)."""
    target = Target(kind, aws_destinations, rabbit)
    if kind is SinkKind.rabbitmq:
        item = target.delivery(credential={"uri": get_settings().rabbitmq_url.replace("hub:hub@", "hub:wrong@")})
        [result] = run(_send(kind, [item]))
    else:
        [result] = run(_send(kind, [target.delivery()], aws_endpoint_url=private_moto))
        assert result.detail.startswith(("sqs:SendMessage failed", "events:PutEvents failed")), result.detail
    assert not result.ok and result.error_class == ErrorClass.auth_failed

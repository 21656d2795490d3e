"""The queue sinks' refusals and faults on real destinations (moto server, local RabbitMQ): unroutable and
oversized messages, entry failures, no credential, a broker restart mid-run, EventBridge's data wrapping."""

from __future__ import annotations

import asyncio
import json
from typing import Any

import pytest

from hub.config import get_settings
from hub.sinks.base import PreparedDelivery
from hub.providers.rabbitmq.sink import RabbitMQSink
from hub.sinks.vocabulary import ErrorClass, SinkKind
from devkit.destinations import (  # noqa: F401 (aws_destinations and rabbit are fixtures)
    STATIC_AWS, AwsDestinations, Rabbit, aws_destinations, delivery, free_port, rabbit, receive_all,
)
from tests.sinks.test_queue_sinks import Target, _loopback_broker, _send, run  # noqa: F401 (an autouse fixture)


def test_rabbitmq_unroutable_has_its_own_class(rabbit):
    """RabbitMQ: `mandatory` — a message no queue is bound for is returned: `unroutable`, not delivered."""
    exchange, queue = rabbit.exchange_with_queue("orders.created")
    routed = delivery(SinkKind.rabbitmq, f"{exchange}/orders.created", credential={"uri": get_settings().rabbitmq_url})
    strays = [delivery(SinkKind.rabbitmq, f"{exchange}/nobody.listens", credential={"uri": get_settings().rabbitmq_url})
              for _ in range(2)]
    results = run(_send(SinkKind.rabbitmq, [strays[0], routed, strays[1]]))
    assert [r.error_class for r in results] == ["unroutable", "", "unroutable"]
    assert len(rabbit.drain(queue)) == 1


def test_sqs_oversized_messages(aws_destinations):
    """Oversized (SQS): over `sqs_max_message_bytes` (1 MiB, AWS's and moto's limit) the message is refused
    unsent; over a queue's own smaller MaximumMessageSize moto refuses it (InvalidParameterValue). Both are
    payload_too_large and terminal (dead-lettered, not retried)."""
    small = aws_destinations.queue(MaximumMessageSize="1024")
    big = delivery(SinkKind.sqs, small, credential=dict(STATIC_AWS), data={"blob": "x" * 2000})
    huge = delivery(SinkKind.sqs, small, credential=dict(STATIC_AWS), data={"blob": "x" * 1_100_000})
    results = run(_send(SinkKind.sqs, [big, huge]))
    assert [(r.error_class, r.terminal) for r in results] == [("payload_too_large", True)] * 2
    assert "InvalidParameterValue" in results[0].detail and "1048576" in results[1].detail
    assert receive_all(small, 1, rounds=1) == []


def test_eventbridge_oversized_entry_is_dead_lettered_unsent(aws_destinations):
    """Oversized (EventBridge): an entry over 256 KiB by AWS's size formula is payload_too_large and terminal,
    refused by the hub (moto does not enforce the limit); the other entries of the batch still go."""
    bus, tap = aws_destinations.bus_with_tap()
    big = delivery(SinkKind.eventbridge, bus, credential=dict(STATIC_AWS), data={"blob": "x" * 270_000})
    fine = delivery(SinkKind.eventbridge, bus, credential=dict(STATIC_AWS), index=3)
    results = run(_send(SinkKind.eventbridge, [big, fine]))
    assert (results[0].error_class, results[0].terminal) == ("payload_too_large", True)
    assert results[1].ok
    got = receive_all(tap, 2, rounds=3)
    assert [json.loads(m["Body"])["detail"]["order"] for m in got] == [3]


def test_rabbitmq_oversized_is_dead_lettered_unsent(rabbit):
    """Oversized (RabbitMQ): over `rabbitmq_max_message_bytes` the body is refused unsent, terminal."""
    exchange, queue = rabbit.exchange_with_queue()
    item = delivery(SinkKind.rabbitmq, f"{exchange}/orders.created", credential={"uri": get_settings().rabbitmq_url},
                    data={"blob": "x" * 5000})
    [result] = run(_send(SinkKind.rabbitmq, [item], rabbitmq_max_message_bytes=4096))
    assert (result.error_class, result.terminal) == ("payload_too_large", True)
    assert rabbit.drain(queue) == []


def test_eventbridge_entry_failure_carries_the_aws_code(aws_destinations):
    """EventBridge: a failed entry is a failure whose detail has the AWS error code (moto refuses a missing
    Source per entry with InvalidArgument)."""
    bus, _ = aws_destinations.bus_with_tap()
    item = delivery(SinkKind.eventbridge, bus, credential=dict(STATIC_AWS))
    item = PreparedDelivery(**{**{f: getattr(item, f) for f in item.__dataclass_fields__},
                               "attributes": {**item.attributes, "source": ""}})
    [result] = run(_send(SinkKind.eventbridge, [item]))
    assert result.error_class == ErrorClass.destination_error and "InvalidArgument" in result.detail


def test_no_credential_is_classified(aws_destinations):
    """A queue delivery without credential or grant is `no_credential` (never an exception)."""
    queue = aws_destinations.queue()
    results = run(_send(SinkKind.sqs, [delivery(SinkKind.sqs, queue)]))
    assert results[0].error_class == ErrorClass.no_credential


async def _deliver_until_done(sink: RabbitMQSink, pending: list[PreparedDelivery], *, max_rounds: int,
                              on_round: Any) -> tuple[int, list[str]]:
    """Send, then re-send every delivery whose attempt failed (what the engine's retries do), round after
    round; returns (failed attempts, the classes of the failures)."""
    failures: list[str] = []
    for round_number in range(max_rounds):
        if not pending:
            break
        on_round(round_number)
        results = await sink.deliver_many(pending)
        failures += [r.error_class for r in results if not r.ok]
        pending = [d for d, r in zip(pending, results, strict=True) if not r.ok]
        if pending:
            await asyncio.sleep(0.5)
    assert not pending, f"{len(pending)} deliveries never succeeded"
    return len(failures), failures


@pytest.mark.slow
def test_rabbitmq_broker_restart_mid_run_loses_nothing(tmp_path):
    """RabbitMQ broker restarted mid-run (a private node, so the shared broker stays up): deliveries made while
    it is down fail as connection_reset / connect_refused, the sink reconnects once it is back, and with
    retries every event arrives; duplicates (same message_id) are counted and bounded by the retries."""
    import pika

    from devkit.rabbit_node import private_rabbit, rabbitmq_sbin

    if rabbitmq_sbin() is None:
        pytest.skip("rabbitmq-server is not installed")
    with private_rabbit(tmp_path) as node:
        connection = pika.BlockingConnection(pika.URLParameters(node.url))
        channel = connection.channel()
        channel.exchange_declare("orders", "direct", durable=True)
        channel.queue_declare("orders-in", durable=True)
        channel.queue_bind("orders-in", "orders", "created")
        connection.close()
        credential = {"uri": node.url}
        batches = [[delivery(SinkKind.rabbitmq, "orders/created", credential=credential, index=b * 20 + i)
                    for i in range(20)] for b in range(10)]

        async def run_all() -> tuple[int, list[str]]:
            sink = RabbitMQSink(settings=get_settings())
            failed, classes, restarted = 0, [], []
            try:
                for number, batch in enumerate(batches):
                    if number == 4:  # the broker stops while this batch is in flight
                        stopping = asyncio.get_running_loop().run_in_executor(None, node.stop_app)
                        await asyncio.sleep(0.05)
                    if number == 5:
                        await stopping

                    def restart_later(round_number: int) -> None:
                        # The first batch that keeps failing for three rounds brings the broker back.
                        if number >= 4 and round_number == 3 and not restarted:
                            restarted.append(True)
                            node.start_app()

                    more, seen = await _deliver_until_done(sink, batch, max_rounds=40, on_round=restart_later)
                    failed, classes = failed + more, classes + seen
            finally:
                await sink.close()
            return failed, classes

        failed_attempts, classes = asyncio.run(run_all())
        assert failed_attempts > 0 and set(classes) <= {"connection_reset", "connect_refused", "timeout"}, classes
        connection = pika.BlockingConnection(pika.URLParameters(node.url))
        channel = connection.channel()
        received: list[tuple[Any, bytes]] = []
        for _ in range(1000):
            method, properties, body = channel.basic_get("orders-in", auto_ack=True)
            if method is None:
                break
            received.append((properties, body))
        connection.close()
    sent = {d.delivery_id: d for batch in batches for d in batch}
    ids = [properties.message_id for properties, _ in received]
    duplicates = len(ids) - len(set(ids))
    print(f"broker restart: {len(sent)} sent, {len(ids)} received, {duplicates} duplicates, "
          f"{failed_attempts} failed attempts")
    assert set(ids) == set(sent)  # nothing lost
    assert duplicates <= failed_attempts
    for properties, body in received:
        assert json.loads(body) == json.loads(sent[properties.message_id].body)


def test_eventbridge_wraps_data_that_is_not_an_object(aws_destinations):
    """EventBridge: Detail must be a JSON object, so data that is not one arrives as {"data": <value>}."""
    bus, tap = aws_destinations.bus_with_tap()
    item = delivery(SinkKind.eventbridge, bus, credential=dict(STATIC_AWS), data=[1, "two", {"three": 3}])
    assert run(_send(SinkKind.eventbridge, [item]))[0].ok
    [message] = receive_all(tap, 1, rounds=3)
    assert json.loads(message["Body"])["detail"] == {"data": [1, "two", {"three": 3}]}

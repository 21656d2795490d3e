"""Queue destinations end to end, as a user brings them up, through real processes: the destination
routes → CloudEvents produced to Kafka → `hub ingest` → `hub deliver` → SQS, EventBridge, RabbitMQ.

Each test has a migrated scratch PostgreSQL of its own (the engine claims every due job in its
database) and fresh topics, queues, buses and exchanges. Every message is read back from the real
destination and checked field by field against the CloudEvent produced.

Rules: R-X-STATE-01/03/04/05, R-verifySubscription-03/07, R-putSubscriptionDelegatedGrant-05,
R-putSubscriptionCredential-04/05.
"""

from __future__ import annotations

import json
import uuid
from collections.abc import Iterator
from typing import Any

import psycopg
import pytest
from cloudevents.core.bindings.kafka import to_structured_event
from cloudevents.core.v1.event import CloudEvent

from hub.kafka import ensure_topics, make_producer
from tests.destinations.test_aws_onboarding import _create_role, _grant_body
from tests.destinations.test_credential import _uri
from tests.subscriptions.conftest import db_row
from devkit.destinations import aws
from devkit.poll import wait_until
from devkit.processes import hub_process
from devkit.scratchdb import hub_database, migrated_scratch_database

EVENT_TYPE = "orders.created"
# Retries quick, holds long: a held job flows only because an activation released it.
ENGINE = {"deliver_retry_ladder_seconds": "0.5,0.5,0.5", "deliver_idle_poll_seconds": "0.05",
          "deliver_hold_recheck_seconds": "300", "log_level": "WARNING"}


@pytest.fixture(scope="module")
def queue_scratch_url() -> Iterator[str]:
    with migrated_scratch_database() as url:
        yield url


@pytest.fixture
def hub_db(queue_scratch_url: str, override_settings) -> Iterator[str]:  # noqa: ANN001
    """The API in this test process and the workers it starts use the scratch database."""
    with hub_database(queue_scratch_url, override_settings, **ENGINE):
        yield queue_scratch_url.replace("postgresql+psycopg://", "postgresql://", 1)


@pytest.fixture
def backbone() -> dict[str, str]:
    """Fresh topics and a fresh consumer group; the environment the worker processes get."""
    prefix = f"q{uuid.uuid4().hex[:10]}."
    ensure_topics([f"{prefix}ledger", f"{prefix}dlq", f"{prefix}streaming-hub"], partitions=1)
    return {"HUB_KAFKA_TOPIC_PREFIX": prefix, "HUB_KAFKA_CONSUMER_GROUP": f"ingest-{prefix}"}


def produce(backbone: dict[str, str], tenant: str, count: int) -> list[dict[str, Any]]:
    """``count`` structured CloudEvents for ``tenant`` on the ledger topic; returns each as JSON."""
    producer, sent = make_producer(), []
    for n in range(count):
        attributes = {"id": str(uuid.uuid4()), "source": "ledger", "type": EVENT_TYPE, "specversion": "1.0",
                      "tenantid": tenant, "datacontenttype": "application/json"}
        data = {"order": n, "total": "10.50", "note": "café ✓"}
        message = to_structured_event(CloudEvent(attributes=attributes, data=data))
        producer.produce(f"{backbone['HUB_KAFKA_TOPIC_PREFIX']}ledger", value=message.value, key=message.key,
                         headers=message.headers)
        sent.append(json.loads(message.value))  # as produced (the SDK adds `time`)
    assert producer.flush(15) == 0
    return sent


def jobs(url: str, sub_id: str) -> list[tuple[str, str, int]]:
    """(job id, state, attempts) of one subscription's delivery jobs."""
    with psycopg.connect(url) as conn:
        rows = conn.execute("SELECT id::text, state, attempts FROM delivery_jobs WHERE subscription_id = %s",
                            (sub_id,)).fetchall()
    return [(row[0], row[1], row[2]) for row in rows]


def collect_sqs(queue_url: str, expected: int, timeout: float = 90.0) -> list[dict[str, Any]]:
    """Receive (and delete) messages until ``expected`` arrived; then one more look for extras."""
    sqs, got = aws("sqs"), []

    def receive() -> bool:
        answer = sqs.receive_message(QueueUrl=queue_url, MaxNumberOfMessages=10, WaitTimeSeconds=1,
                                     MessageAttributeNames=["All"])
        for message in answer.get("Messages", []):
            got.append(message)
            sqs.delete_message(QueueUrl=queue_url, ReceiptHandle=message["ReceiptHandle"])
        return len(got) >= expected

    wait_until(receive, timeout=timeout, interval=0.1, message=f"{len(got)} of {expected} messages in {queue_url}")
    receive()
    return got


def collect_rabbit(rabbit, queue: str, expected: int, timeout: float = 90.0) -> list[tuple[Any, bytes]]:  # noqa: ANN001
    got: list[tuple[Any, bytes]] = []

    def drained() -> bool:
        got.extend(rabbit.drain(queue))
        return len(got) >= expected

    wait_until(drained, timeout=timeout, interval=0.2, message=f"{len(got)} of {expected} messages in {queue}")
    return got


def by_id(events: list[dict[str, Any]]) -> dict[str, dict[str, Any]]:
    return {event["id"]: event for event in events}


def test_aws_onboarding_then_the_engine_delivers_to_the_queue_and_the_bus(  # noqa: PLR0913
        hub_db, api, aws_destinations, setup_configured, backbone, tenant):  # noqa: ANN001
    """The user's path for each AWS kind: setup-artifacts → a role made from the trust policy (moto IAM) →
    delegated-grant → verify → active. Then events produced to Kafka travel `hub ingest` and `hub deliver`
    and arrive once each in the SQS queue (body = the structured CloudEvent, `ce_` attributes, delivery id =
    job id) and on the EventBridge bus (read through a rule targeting a queue: source, detail-type, detail)."""
    queue = aws_destinations.queue()
    bus, tap = aws_destinations.bus_with_tap()
    subs = {}
    for kind, endpoint, name in (("sqs", queue, queue.rsplit("/", 1)[1]), ("eventbridge", bus, bus)):
        sub_id = api.subscription(kind, endpoint)
        artifacts = api.artifacts(sub_id).json()
        role_arn = _create_role(artifacts, kind, name)
        assert api.grant(sub_id, _grant_body(kind, endpoint, role_arn)).status_code == 200
        assert api.verify(sub_id).json() == {"outcome": "ok", "statusCode": 0, "errorClass": ""}
        assert db_row(sub_id)["verification_state"] == "active"
        subs[kind] = sub_id
    sent = by_id(produce(backbone, tenant, 3))

    with hub_process("ingest", backbone), hub_process("deliver", backbone):
        queued = collect_sqs(queue, 3)
        tapped = collect_sqs(tap, 3)
        wait_until(lambda: all(state == "delivered" for sub in subs.values() for _, state, _ in jobs(hub_db, sub)),
                   timeout=30, message="jobs recorded as delivered")

    assert len(queued) == 3 and len(tapped) == 3
    sqs_jobs = {job_id for job_id, _, _ in jobs(hub_db, subs["sqs"])}
    for message in queued:
        body = json.loads(message["Body"])
        assert body == sent[body["id"]]
        attributes = {name: spec["StringValue"] for name, spec in message["MessageAttributes"].items()}
        for name in ("id", "source", "type", "specversion", "tenantid", "datacontenttype", "time"):
            assert attributes[f"ce_{name}"] == str(sent[body["id"]][name]), name
    assert len(sqs_jobs) == 3
    by_order = {event["data"]["order"]: event for event in sent.values()}
    for message in tapped:
        envelope = json.loads(message["Body"])
        original = by_order[envelope["detail"]["order"]]
        assert envelope["source"] == original["source"] == "ledger"
        assert envelope["detail-type"] == original["type"] == EVENT_TYPE
        assert envelope["detail"] == original["data"]
    assert sorted(json.loads(m["Body"])["detail"]["order"] for m in tapped) == [0, 1, 2]


def test_rabbitmq_credential_put_activates_and_a_failed_rotation_keeps_delivering(  # noqa: PLR0913
        hub_db, api, rabbit, loopback_broker, backbone, tenant):  # noqa: ANN001
    """Two RabbitMQ subscriptions, each activated by a credential PUT. A failed rotation of `second` (wrong
    password) stores nothing and leaves it `active` (R-putSubscriptionCredential-03: the stored credential
    stays in force), so the engine goes on delivering to it with the working credential: the same event
    arrives in both bound queues. Each message is checked field by field."""
    exchanges = {}
    subs = {}
    for name in ("first", "second"):
        exchange, queue = rabbit.exchange_with_queue(EVENT_TYPE)
        subs[name] = api.subscription("rabbitmq", f"{exchange}/{EVENT_TYPE}")
        exchanges[name] = queue
        assert api.put_credential(subs[name], {"sinkConfig": {"uri": _uri()}}).json()["outcome"] == "ok"
    refused = api.put_credential(subs["second"], {"sinkConfig": {"uri": _uri("not-the-password")}}).json()
    assert refused["outcome"] == "failed" and refused["errorClass"] == "auth_failed"
    assert db_row(subs["second"])["verification_state"] == "active"
    [event] = produce(backbone, tenant, 1)

    with hub_process("ingest", backbone), hub_process("deliver", backbone):
        [(props, body)] = collect_rabbit(rabbit, exchanges["first"], 1)
        [(after_props, after_body)] = collect_rabbit(rabbit, exchanges["second"], 1)
        [(first_job, _, _)] = wait_until(lambda: jobs(hub_db, subs["first"]), timeout=30)
        [(second_job, _, _)] = wait_until(lambda: jobs(hub_db, subs["second"]), timeout=30)
        wait_until(lambda: jobs(hub_db, subs["second"])[0][1] == "delivered", timeout=30)
        wait_until(lambda: jobs(hub_db, subs["first"])[0][1] == "delivered", timeout=30)

    for properties, raw, job_id in ((props, body, first_job), (after_props, after_body, second_job)):
        assert json.loads(raw) == event
        assert properties.message_id == job_id and properties.delivery_mode == 2
        assert properties.content_type.startswith("application/cloudevents+json")
        for name in ("id", "source", "type", "specversion", "tenantid", "datacontenttype", "time"):
            assert properties.headers[f"cloudEvents_{name}"] == str(event[name]), name
    assert jobs(hub_db, subs["first"])[0][1:] == ("delivered", 1)
    assert jobs(hub_db, subs["second"])[0][1:] == ("delivered", 1)
"""End to end on the real broker and database: `hub ingest` and `hub dlq-observer` as real processes."""

from __future__ import annotations

import json
import uuid

import psycopg
import pytest
from cloudevents.core.bindings.kafka import to_binary_event, to_structured_event
from cloudevents.core.v1.event import CloudEvent

from hub.db import libpq_url
from hub.kafka import ensure_topics, make_producer
from devkit.processes import hub_process
from devkit.poll import wait_until


def _event(tenant: str, *, ce_id: str, event_type: str = "transaction.posted", **extra) -> CloudEvent:
    attributes = {"id": ce_id, "source": "ledger", "type": event_type, "specversion": "1.0",
                  "tenantid": tenant, "datacontenttype": "application/json", **extra}
    return CloudEvent(attributes=attributes, data={"amount": 7})


def _wait_for(query: str, params: tuple, expected: int, timeout: float = 60.0) -> int:
    def count() -> int:
        with psycopg.connect(libpq_url()) as connection:
            return connection.execute(query, params).fetchone()[0]

    wait_until(lambda: count() >= expected, timeout, 0.5, f"{expected} row(s) from {query!r}")
    return count()


@pytest.fixture
def ingest_env() -> dict[str, str]:
    prefix = f"t{uuid.uuid4().hex[:10]}."
    return {"HUB_KAFKA_TOPIC_PREFIX": prefix, "HUB_KAFKA_CONSUMER_GROUP": f"ingest-{prefix}",
            "HUB_KAFKA_DLQ_GROUP": f"dlq-{prefix}"}


def _insert_subscription(tenant: str, **columns) -> uuid.UUID:
    from hub.db import session_scope
    from hub.subscription.models import Subscription

    subscription = Subscription(tenant_id=tenant, name=f"s-{uuid.uuid4().hex[:6]}", sink_kind="webhook",
                                endpoint="https://hooks.example/h", verification_state="active", **columns)
    with session_scope() as session:
        session.add(subscription)
    return subscription.id


def test_both_content_modes_dedup_matching_and_poison(ingest_env, tenant):
    """N18/N19/N20: binary and structured events are stored once with rising seq; poison is quarantined and observed."""
    prefix = ingest_env["HUB_KAFKA_TOPIC_PREFIX"]
    topic = f"{prefix}ledger"
    ensure_topics([topic, f"{prefix}dlq"], partitions=1)
    matching = _insert_subscription(tenant, event_types=["transaction.posted"])
    _insert_subscription(tenant, event_types=["account.created"])
    from hub.db import session_scope
    from sqlalchemy import text

    with session_scope() as session:
        session.execute(text("UPDATE subscription_versions SET version = version + 1 WHERE id = 1"))

    producer = make_producer()
    first, second = str(uuid.uuid4()), str(uuid.uuid4())
    for message in (to_binary_event(_event(tenant, ce_id=first)),
                    to_structured_event(_event(tenant, ce_id=second)),
                    to_binary_event(_event(tenant, ce_id=first))):
        producer.produce(topic, value=message.value, key=message.key, headers=message.headers)
    producer.produce(topic, value=b"\xff not a cloud event", headers={"content-type": b"application/cloudevents+json"})
    no_tenant = _event(tenant, ce_id=str(uuid.uuid4()))
    structured = json.loads(to_structured_event(no_tenant).value)
    structured.pop("tenantid")
    producer.produce(topic, value=json.dumps(structured).encode(),
                     headers={"content-type": b"application/cloudevents+json"})
    third = str(uuid.uuid4())
    message = to_structured_event(_event(tenant, ce_id=third))
    producer.produce(topic, value=message.value, headers=message.headers)
    assert producer.flush(15) == 0

    with hub_process("ingest", ingest_env), hub_process("dlq-observer", ingest_env):
        stored = _wait_for("SELECT count(*) FROM event_log WHERE tenant_id = %s", (tenant,), 3)
        observed = _wait_for("SELECT count(*) FROM dlq_observations WHERE source_topic = %s", (topic,), 2)
    assert stored == 3, "binary + structured + the record after the poison, the duplicate stored once"
    assert observed == 2
    with psycopg.connect(libpq_url()) as connection:
        rows = connection.execute("SELECT ce_id, seq FROM event_log WHERE tenant_id = %s ORDER BY seq",
                                  (tenant,)).fetchall()
        jobs = connection.execute("SELECT subscription_id, count(*) FROM delivery_jobs WHERE tenant_id = %s "
                                  "GROUP BY subscription_id", (tenant,)).fetchall()
        classes = {row[0] for row in connection.execute(
            "SELECT error_class FROM dlq_observations WHERE source_topic = %s", (topic,)).fetchall()}
    assert [row[0] for row in rows] == [first, second, third]
    assert [row[1] for row in rows] == sorted({row[1] for row in rows})
    assert jobs == [(matching, 3)]
    assert classes <= {"serialization", "validation"} and classes

"""The hub's Kafka module talks to the real broker: a CloudEvent goes out and comes back."""

from __future__ import annotations

import time
import uuid

from cloudevents.core.bindings.kafka import KafkaMessage, from_kafka_event, to_structured_event
from cloudevents.core.v1.event import CloudEvent

from hub.kafka import ensure_topics, make_consumer, make_producer, producer_config


def test_cloudevent_round_trip_through_real_broker():
    """A structured-mode CloudEvent produced to a fresh topic is read back intact by a hub consumer."""
    topic = f"test.plumbing.{uuid.uuid4().hex[:8]}"
    ensure_topics([topic], partitions=1)
    event = CloudEvent(attributes={"id": str(uuid.uuid4()), "source": "ledger", "type": "transaction.posted",
                                   "specversion": "1.0", "tenantid": "t-1",
                                   "datacontenttype": "application/json"}, data={"amount": 42})
    message = to_structured_event(event)
    producer = make_producer()
    producer.produce(topic, value=message.value, key=message.key, headers=message.headers)
    assert producer.flush(15) == 0

    consumer = make_consumer(f"test-{uuid.uuid4().hex[:8]}")
    consumer.subscribe([topic])
    try:
        deadline = time.monotonic() + 30
        record = None
        while record is None and time.monotonic() < deadline:
            candidate = consumer.poll(1.0)
            if candidate is not None and candidate.error() is None:
                record = candidate
        assert record is not None, "nothing came back from the broker"
        back = from_kafka_event(KafkaMessage(headers=dict(record.headers() or []), key=record.key(),
                                             value=record.value()))
        assert back.get_id() == event.get_id() and back.get_extension("tenantid") == "t-1"
        assert back.get_data() == {"amount": 42}
        consumer.store_offsets(record)
        consumer.commit(asynchronous=False)
    finally:
        consumer.close()


def test_producers_linger_one_millisecond_unless_configured(override_settings):
    """A single publish's answer waits the producer's linger: 1 ms by default (N90), and the setting rules."""
    assert producer_config()["linger.ms"] == 1.0
    assert producer_config(**{"linger.ms": 7})["linger.ms"] == 7  # an explicit override still wins
    override_settings(kafka_producer_linger_ms=5)
    assert producer_config()["linger.ms"] == 5.0
    assert producer_config()["acks"] == "all" and producer_config()["enable.idempotence"] is True

"""The topics the hub produces to exist before ingestion subscribes (issue 53, N99).

A topic made after the pattern subscription is found only at the consumer's next metadata refresh: seed
003's first publishes on a fresh stack, which wait for the stored event, stalled for seconds.
"""

from __future__ import annotations

import re
import time

from hub.broker.publish import broker_topic
from hub.config import get_settings
from hub.kafka import admin_client
from hub.lifecycle.event_types import hub_topic
from hub.publisher.service import publish_topic
from tests.ingest.conftest import Lane, ingest_worker
from workers.ingest.topics import hub_topics, ingest_pattern


def test_hub_topics_are_every_topic_the_hub_produces_to() -> None:
    settings = get_settings()
    assert set(hub_topics(settings)) == {settings.dlq_topic, hub_topic(settings), publish_topic(), broker_topic()}


def test_ingestion_reads_every_hub_topic_but_the_dead_letters() -> None:
    settings = get_settings()
    pattern = re.compile(ingest_pattern(settings.kafka_topic_prefix, settings.dlq_topic))
    read = {topic for topic in hub_topics(settings) if pattern.match(topic)}
    assert read == {hub_topic(settings), publish_topic(), broker_topic()}


def test_a_started_worker_owns_the_broker_and_publisher_topics_before_any_publish(lane: Lane) -> None:
    listed = admin_client().list_topics(timeout=10).topics
    assert broker_topic() not in listed and publish_topic() not in listed  # a fresh prefix: nothing yet
    with ingest_worker() as worker:
        assigned: set[str] = set()
        deadline = time.monotonic() + 30  # a bound on the group's join, not a latency assertion
        while not {broker_topic(), publish_topic()} <= assigned and time.monotonic() < deadline:
            assigned = {part.topic for part in worker.consumer.assignment()}
            time.sleep(0.1)
    assert {broker_topic(), publish_topic()} <= assigned

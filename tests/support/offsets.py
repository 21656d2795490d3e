"""A consumer group's committed offset, read the way a polling test needs it."""

from __future__ import annotations

from confluent_kafka import Consumer, KafkaException, TopicPartition

from hub.config import get_settings

NOT_KNOWN_YET = -1


def committed_offset(group: str, topic: str, partition: int = 0) -> int:
    """The group's committed offset (-1001 when none), or -1 while the broker cannot say yet.

    A fresh broker answers NOT_COORDINATOR (and the like) while it loads its offsets topic;
    that is a retriable state for a test that polls, not a failure.
    """
    consumer = Consumer({"bootstrap.servers": get_settings().kafka_bootstrap, "group.id": group})
    try:
        return consumer.committed([TopicPartition(topic, partition)], timeout=10)[0].offset
    except KafkaException as exc:
        if exc.args[0].retriable():
            return NOT_KNOWN_YET
        raise
    finally:
        consumer.close()

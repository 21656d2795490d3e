"""A consumer group's committed offset, read the way a polling test needs it."""

from __future__ import annotations

from confluent_kafka import Consumer, KafkaError, KafkaException, TopicPartition

from hub.config import get_settings

NOT_KNOWN_YET = -1
# Answers of a broker still loading its group coordinator; librdkafka does not flag all as retriable.
_COORDINATOR_NOT_READY = {KafkaError.NOT_COORDINATOR, KafkaError.COORDINATOR_LOAD_IN_PROGRESS,
                          KafkaError.COORDINATOR_NOT_AVAILABLE}


def broker_not_ready(exc: KafkaException) -> bool:
    """Whether a failed offsets request only means: ask again shortly."""
    error = exc.args[0]
    return error.retriable() or error.code() in _COORDINATOR_NOT_READY


def committed_offset(group: str, topic: str, partition: int = 0) -> int:
    """The group's committed offset (-1001 when none), or -1 while the broker cannot say yet.

    A fresh broker answers NOT_COORDINATOR (and the like) while it loads its offsets topic;
    that is a retriable state for a test that polls, not a failure.
    """
    consumer = Consumer({"bootstrap.servers": get_settings().kafka_bootstrap, "group.id": group})
    try:
        return consumer.committed([TopicPartition(topic, partition)], timeout=10)[0].offset
    except KafkaException as exc:
        if broker_not_ready(exc):
            return NOT_KNOWN_YET
        raise
    finally:
        consumer.close()

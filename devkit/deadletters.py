"""Dead letters for tests: a message put on a durable consumer queue and rejected, so the broker moves it
to the shared dead-letter queue with ``x-death`` naming the queue (reason ``rejected``)."""

from __future__ import annotations

import uuid
from datetime import UTC, datetime

import pika

from hub.config import get_settings
from hub.consumer import messages, topology
from hub.consumer.messages import ConsumerEvent
from hub.consumer.triage import message_key


def dead_letter(queue_id: str, *, event_type: str = "orders.created", note: str | None = None) -> str:
    """Publish one event to QUEUE_ID's broker queue, reject it, and return its dead-letter key."""
    now = datetime.now(UTC)
    event = ConsumerEvent(event_type, "tests", now, now, {"note": note or uuid.uuid4().hex})
    body, name = messages.encode(event), topology.queue_name(queue_id)
    connection = pika.BlockingConnection(pika.URLParameters(get_settings().rabbitmq_url))
    try:
        channel = connection.channel()
        channel.confirm_delivery()
        channel.basic_publish("", name, body, pika.BasicProperties(delivery_mode=2), mandatory=True)
        for _ in range(50):
            method, _, got = channel.basic_get(name)
            if method is not None and got == body:
                channel.basic_reject(method.delivery_tag, requeue=False)
                return message_key(queue_id, body)
            if method is not None:
                channel.basic_nack(method.delivery_tag, requeue=True)
            connection.sleep(0.1)
        raise AssertionError(f"the message never reached {name}")
    finally:
        connection.close()


def take(queue_id: str) -> bytes | None:
    """One message from QUEUE_ID's broker queue (acknowledged), or None."""
    connection = pika.BlockingConnection(pika.URLParameters(get_settings().rabbitmq_url))
    try:
        channel = connection.channel()
        for _ in range(30):
            method, _, body = channel.basic_get(topology.queue_name(queue_id), auto_ack=True)
            if method is not None:
                return body
            connection.sleep(0.1)
        return None
    finally:
        connection.close()

"""Many messages to one exchange in one socket write, each with its own publisher confirm (N65).

aiormq's ``basic_publish`` marshals each message into its own write and waits for it to drain: for
the relay's pages of hundreds of events that was half of its CPU (a ``send`` per message). This
publishes a page as the same AMQP frames (``basic.publish``, content header, body frames), marshalled
into one :class:`aiormq.abc.ChannelFrame`, on the channel's own delivery-tag sequence and confirmation
futures, so the channel's confirm handling (single and ``multiple`` acks, nacks, a closed channel) is
aiormq's, unchanged. Messages carry no ``message_id`` and are never ``mandatory``: nothing is returned.
"""

from __future__ import annotations

import asyncio
from dataclasses import dataclass

import aiormq
from aiormq.abc import ChannelFrame
from pamqp.body import ContentBody
from pamqp.header import ContentHeader


@dataclass(frozen=True, slots=True)
class Outgoing:
    """One message of a batch: its routing key, body and properties."""

    routing_key: str
    body: bytes
    properties: aiormq.spec.Basic.Properties


def body_frames(body: bytes, max_content_size: int) -> list[ContentBody]:
    """BODY cut into content frames of at most MAX_CONTENT_SIZE bytes (none for an empty body)."""
    return [ContentBody(body[start:start + max_content_size]) for start in range(0, len(body), max_content_size)]


def message_frames(exchange: str, message: Outgoing, max_content_size: int) -> list:
    """The frames of one ``basic.publish`` of MESSAGE to EXCHANGE."""
    return [aiormq.spec.Basic.Publish(exchange=exchange, routing_key=message.routing_key),
            ContentHeader(properties=message.properties, body_size=len(message.body)),
            *body_frames(message.body, max_content_size)]


async def publish_confirmed(channel: aiormq.Channel, exchange: str, batch: list[Outgoing]) -> None:
    """Publish BATCH to EXCHANGE on CHANNEL (publisher confirms on) and wait until the broker confirmed
    every message; raises :class:`aiormq.exceptions.DeliveryError` on a nack and the channel's error
    when it closes first."""
    if not channel.publisher_confirms:
        raise ValueError("the channel must have publisher confirms on")
    frames: list = []
    confirmations: list[asyncio.Future] = []
    async with channel.lock:
        for message in batch:
            channel.delivery_tag += 1
            confirmation = channel.create_future()
            channel.confirmations[channel.delivery_tag] = confirmation
            confirmations.append(confirmation)
            frames += message_frames(exchange, message, channel.max_content_size)
        drained = channel.create_future()
        await channel.write_queue.put(ChannelFrame.marshall(channel_number=channel.number, frames=frames,
                                                            drain_future=drained))
        await drained
    for confirmation in confirmations:  # in turn, not gather(): a task per future cost more than the wait
        await confirmation

"""The consuming side of the hub's AMQP client: one consumer per channel, its deliveries, acks and end (N89).

The connection (:mod:`hub.amqp.client`) hands a consuming channel the frames of its deliveries as they are
read: ``basic.deliver``, the content header, the body frames. Each complete message is appended to
:attr:`ConsumingChannel.deliveries` as ``(delivery tag, body, properties)`` (the content header's
properties, still encoded: :func:`headers_of` reads their headers on demand) and wakes the one reader.
Acks, nacks and rejects are frames encoded here and written with the turn's other frames; the broker
answers none of them. A consumer the broker cancels (its queue deleted, a quorum queue's leader gone),
its channel closed by the broker or its connection lost wakes the reader too: :attr:`ended` says so.

Why not the general-purpose asyncio client the streams used before: per delivery it decoded every frame
into objects, ran a task for the consumer callback and settled futures for each ack; on this 2-core VM
that was ~59 µs of CPU a message, more than the gRPC stream that sends it on.
"""

from __future__ import annotations

import asyncio
import struct
from collections import deque
from typing import Any

from pamqp import commands, decode

from hub.amqp.channel import FRAME_END, HEADER, METHOD, AmqpClosed, Channel, FrameLink

_ACKISH = struct.Struct(">BHIHHQBB")  # frame head, class, method, delivery tag, bits, frame end
_U64 = struct.Struct(">Q")  # a delivery tag; a content header's body size
BASIC, ACK, REJECT, NACK = 60, 80, 90, 120
HEADERS_FLAG, CONTENT_TYPE_FLAG, CONTENT_ENCODING_FLAG = 1 << 13, 1 << 15, 1 << 14


def settle_frame(channel: int, method: int, tag: int, bits: int) -> bytes:
    """One basic.ack / basic.reject / basic.nack frame (BITS: 1 multiple, 2 requeue; reject: 1 requeue)."""
    return _ACKISH.pack(METHOD, channel, 13, BASIC, method, tag, bits, FRAME_END)


def headers_of(properties: bytes) -> dict[str, Any]:
    """The ``headers`` table of encoded basic properties (a content header's after its body size)."""
    flags = int.from_bytes(properties[:2], "big")
    if not flags & HEADERS_FLAG:
        return {}
    offset = 2
    for flag in (CONTENT_TYPE_FLAG, CONTENT_ENCODING_FLAG):
        if flags & flag:
            offset += 1 + properties[offset]
    return decode.field_table(properties[offset:])[1]


class ConsumingChannel(Channel):
    """A channel that consumes one queue; make it with ``connection.channel(confirm=False, consuming=True)``."""

    def __init__(self, connection: FrameLink, number: int) -> None:
        super().__init__(connection, number)
        self.deliveries: deque[tuple[int, bytes, bytes]] = deque()
        self.cancelled = False
        self._waiter: asyncio.Future | None = None
        self._tag: int | None = None  # the delivery whose content frames come next
        self._properties, self._size, self._parts, self._received = b"", 0, [], 0

    @property
    def ended(self) -> bool:
        """The consumer is gone: cancelled by the broker, or its channel or connection closed."""
        return self.cancelled or self.is_closed

    # --- frames from the connection -------------------------------------------------------------
    def on_content(self, kind: int, payload: bytes) -> None:
        if kind == METHOD:  # basic.deliver: the consumer tag (a short string), then the delivery tag
            self._tag = _U64.unpack_from(payload, 5 + payload[4])[0]
        elif self._tag is None:
            return  # content of a delivery that came before the channel consumed (none should)
        elif kind == HEADER:
            self._size = _U64.unpack_from(payload, 4)[0]
            self._properties, self._parts, self._received = payload[12:], [], 0
            if self._size == 0:
                self._complete(b"")
        else:
            self._parts.append(payload)
            self._received += len(payload)
            if self._received >= self._size:
                self._complete(self._parts[0] if len(self._parts) == 1 else b"".join(self._parts))

    def _complete(self, body: bytes) -> None:
        self.deliveries.append((self._tag, body, self._properties))
        self._tag, self._parts = None, []
        self._wake()

    def on_cancel(self) -> None:
        self.cancelled = True
        self._wake()

    def fail(self, exc: BaseException) -> None:
        super().fail(exc)
        self._wake()

    def _wake(self) -> None:
        waiter = self._waiter
        if waiter is not None and not waiter.done():
            waiter.set_result(None)

    async def wait(self, seconds: float) -> None:
        """Return when a delivery arrived or the consumer ended, or after SECONDS."""
        if self.deliveries or self.ended:
            return
        self._waiter = self.connection.loop.create_future()
        try:
            async with asyncio.timeout(seconds):
                await self._waiter
        except TimeoutError:
            pass
        finally:
            self._waiter = None

    # --- methods ----------------------------------------------------------------------------
    async def consume(self, queue: str, *, prefetch: int) -> None:
        """Check that QUEUE exists (else :class:`AmqpClosed` 404, channel scope), then consume it, at most
        PREFETCH deliveries unacknowledged."""
        await self._call(commands.Basic.Qos(prefetch_count=prefetch), commands.Basic.QosOk)
        await self._call(commands.Queue.Declare(queue=queue, passive=True), commands.Queue.DeclareOk)
        await self._call(commands.Basic.Consume(queue=queue), commands.Basic.ConsumeOk)

    def _write(self, method: int, tag: int, bits: int) -> None:
        if self.closed is None and self.connection.closed is None:
            self.connection.send([settle_frame(self.number, method, tag, bits)])

    def ack(self, tag: int, *, multiple: bool = False) -> None:
        self._write(ACK, tag, int(multiple))

    def nack(self, tag: int, *, requeue: bool) -> None:
        self._write(NACK, tag, 2 if requeue else 0)

    def reject(self, tag: int, *, requeue: bool) -> None:
        self._write(REJECT, tag, int(requeue))

    async def close(self, timeout: float = 2.0) -> None:
        """Close the channel (what is unacknowledged goes back to its queue) and free its number."""
        try:
            if self.closed is None and self.connection.closed is None:
                async with asyncio.timeout(timeout):
                    await self.connection.call(self.number, commands.Channel.Close(
                        reply_code=200, reply_text="bye", class_id=0, method_id=0), commands.Channel.CloseOk)
        finally:
            self.connection.forget(self.number)
            self.fail(AmqpClosed(200, "closed by the client", "channel"))

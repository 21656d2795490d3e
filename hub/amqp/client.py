"""A lean AMQP 0-9-1 client for RabbitMQ, the hub's way to publish: one asyncio connection, confirming channels.

The RabbitMQ sink and the consumer relay (``hub.consumer.outlet``) publish through it, the consumer streams
consume through it (:mod:`hub.amqp.consuming`), and the credential probe logs in and passive-declares the
exchange with it (the consumer service's queues and bindings use aio-pika). pamqp encodes and decodes every
frame except the hot ones: a publish (see :mod:`hub.amqp.channel`), the broker's ``basic.ack``/``basic.nack``,
and a delivery's frames and its acks (:mod:`hub.amqp.consuming`).
Publishes made in one event-loop turn leave in one socket write. A timer per connection fails
publishes past their deadline and keeps the negotiated heartbeat both ways.

Why not the general-purpose asyncio client the hub used before: per publish it took a lock, a
timeout scope and a queue hop to a writer task that wrote each message on its own, and its reader
handed each frame through two more queues; on this 2-core VM that capped the sink at ~1,500-3,000
messages/s with confirms.
"""

from __future__ import annotations

import asyncio
import struct
import time
from typing import Any

from pamqp import commands, frame
from pamqp.header import ContentHeader, ProtocolHeader
from pamqp.heartbeat import Heartbeat

from hub.amqp.channel import (BODY, FRAME_END, FRAME_HEAD, HEADER, METHOD, RETURNED, AmqpClosed,
                              AmqpConnectionLost, Channel, PropertiesEncoder, shortstr)
from hub.amqp.consuming import ConsumingChannel

__all__ = ["RETURNED", "AmqpClosed", "AmqpConnection", "AmqpConnectionLost", "Channel", "ConsumingChannel",
           "PropertiesEncoder", "connect", "shortstr"]

ACCESS_REFUSED = 403
ACK, NACK, DELIVER = 0x003C0050, 0x003C0078, 0x003C003C  # class 60 (basic) << 16 | 80 ack, 120 nack, 60 deliver
TICK_SECONDS = 0.25
HEARTBEAT_SECONDS = 60
FRAME_MAX = 131_072
_ACK_BODY = struct.Struct(">QB")


class AmqpConnection(asyncio.Protocol):
    """One connection to a broker; make it with :func:`connect`."""

    def __init__(self, loop: asyncio.AbstractEventLoop) -> None:
        self.loop = loop
        self.closed: BaseException | None = None
        self.frame_max = FRAME_MAX
        self.channel_max = 2047
        self.heartbeat = 0
        self._transport: asyncio.Transport | None = None
        self._buffer = bytearray()
        self._out: list[bytes] = []
        self._flush_scheduled = False
        self._channels: dict[int, Channel] = {}
        self._waiters: dict[int, asyncio.Future] = {}  # channel -> the next synchronous reply
        self._returning: dict[int, bool] = {}  # channel -> a basic.return's header is expected next
        self._last_read = self._last_write = time.monotonic()
        self._ticker: asyncio.TimerHandle | None = None
        self._started: asyncio.Future | None = None

    @property
    def is_closed(self) -> bool:
        return self.closed is not None

    # --- writing -------------------------------------------------------------------------------
    def send(self, frames: list[bytes]) -> None:
        """Queue encoded frames; everything queued in one loop turn is written at once."""
        self._out += frames
        if not self._flush_scheduled:
            self._flush_scheduled = True
            self.loop.call_soon(self._flush)

    def _flush(self) -> None:
        self._flush_scheduled = False
        if self._out and self._transport is not None and self.closed is None:
            self._transport.write(b"".join(self._out))
            self._last_write = time.monotonic()
        self._out.clear()

    def _send_method(self, channel: int, method: Any) -> None:
        self.send([frame.marshal(method, channel)])

    async def call(self, channel: int, method: Any, reply: type) -> Any:
        """Send a synchronous method and wait for its reply on the same channel."""
        encoded = frame.marshal(method, channel)
        waiter = self._waiters[channel] = self.loop.create_future()
        self.send([encoded])
        answer = await waiter
        if not isinstance(answer, reply):
            raise AmqpClosed(0, f"unexpected {type(answer).__name__}", "connection")
        return answer

    # --- asyncio.Protocol ---------------------------------------------------------------------
    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        self._transport = transport  # type: ignore[assignment] (uvloop's transports are not asyncio's classes)
        # connection.start may arrive before _open runs: its waiter exists from now on.
        self._started = self._waiters[0] = self.loop.create_future()
        transport.write(ProtocolHeader().marshal())

    def connection_lost(self, exc: Exception | None) -> None:
        self._end(AmqpConnectionLost(f"the connection was lost ({type(exc).__name__ if exc else 'closed'})"))

    def data_received(self, data: bytes) -> None:
        self._last_read = time.monotonic()
        buffer = self._buffer
        buffer += data
        offset, size = 0, len(buffer)
        try:
            while size - offset >= 7:
                kind, channel, length = FRAME_HEAD.unpack_from(buffer, offset)
                end = offset + 7 + length
                if end >= size:
                    break
                if buffer[end] != FRAME_END:
                    raise AmqpClosed(501, "FRAME_ERROR: a frame does not end with 0xCE", "connection")
                self._on_frame(kind, channel, bytes(buffer[offset + 7:end]))
                offset = end + 1
        except Exception as exc:  # noqa: BLE001 (a frame we cannot read ends the connection)
            self._end(exc if isinstance(exc, AmqpClosed) else AmqpClosed(0, f"unreadable frame: {exc}", "connection"))
            return
        del buffer[:offset]

    # --- reading -------------------------------------------------------------------------------
    def _on_frame(self, kind: int, number: int, payload: bytes) -> None:
        if kind == METHOD:
            index = int.from_bytes(payload[:4], "big")
            if index == ACK or index == NACK:
                tag, bits = _ACK_BODY.unpack_from(payload, 4)
                channel = self._channels.get(number)
                if channel is not None:
                    channel.on_confirm(tag, bool(bits & 1), index == ACK)
                return
            if index == DELIVER:
                self._content(kind, number, payload)
                return
            method = commands.INDEX_MAPPING[index]()
            method.unmarshal(payload[4:])
            self._on_method(number, method)
        elif kind == HEADER and self._returning.pop(number, False):
            header = ContentHeader()
            header.unmarshal(payload)
            channel = self._channels.get(number)
            if channel is not None:
                channel.on_return(header.properties.message_id)
        elif kind == HEADER or kind == BODY:
            self._content(kind, number, payload)  # a returned message's body frames are dropped by its channel
        # A heartbeat only proves the broker is alive (data_received noted the time).

    def _content(self, kind: int, number: int, payload: bytes) -> None:
        channel = self._channels.get(number)
        if channel is not None:
            channel.on_content(kind, payload)

    def _on_method(self, number: int, method: Any) -> None:
        if isinstance(method, commands.Basic.Return):
            self._returning[number] = True
        elif isinstance(method, commands.Connection.Close):
            self._send_method(0, commands.Connection.CloseOk())
            self._flush()
            self._end(AmqpClosed(method.reply_code, method.reply_text, "connection"))
        elif isinstance(method, commands.Basic.Cancel):  # the broker took a consumer away
            channel = self._channels.get(number)
            if channel is not None:
                channel.on_cancel()
        elif isinstance(method, commands.Channel.Close):
            self._send_method(number, commands.Channel.CloseOk())
            closed = AmqpClosed(method.reply_code, method.reply_text, "channel")
            channel = self._channels.pop(number, None)
            if channel is not None:
                channel.fail(closed)
            self._resolve(number, closed)
        elif not isinstance(method, (commands.Connection.Blocked, commands.Connection.Unblocked)):
            # A blocked connection (a broker resource alarm) needs nothing here: the publishes
            # wait for their confirms and time out like any slow destination.
            self._resolve(number, method)

    def _resolve(self, number: int, answer: Any) -> None:
        waiter = self._waiters.pop(number, None)
        if waiter is None or waiter.done():
            return
        if isinstance(answer, BaseException):
            waiter.set_exception(answer)
        else:
            waiter.set_result(answer)

    # --- lifecycle -----------------------------------------------------------------------------
    async def _open(self, *, username: str, password: str, vhost: str) -> None:
        assert self._started is not None, "connection_made runs first"
        start = await self._started
        if not isinstance(start, commands.Connection.Start):
            raise AmqpClosed(0, f"expected connection.start, got {type(start).__name__}", "connection")
        try:
            tune = await self.call(0, commands.Connection.StartOk(
                client_properties=CLIENT_PROPERTIES, mechanism="PLAIN", response=f"\0{username}\0{password}",
                locale="en_US"), commands.Connection.Tune)
        except AmqpConnectionLost as lost:
            # A broker that cannot report a refused login (no authentication_failure_close) drops the socket.
            raise AmqpClosed(ACCESS_REFUSED, "ACCESS_REFUSED: the connection was closed during login",
                             "connection") from lost
        self.frame_max = min(tune.frame_max or FRAME_MAX, FRAME_MAX)
        self.heartbeat = min(tune.heartbeat, HEARTBEAT_SECONDS) if tune.heartbeat else 0
        self.channel_max = min(tune.channel_max or 2047, 2047)
        self._send_method(0, commands.Connection.TuneOk(channel_max=self.channel_max, frame_max=self.frame_max,
                                                        heartbeat=self.heartbeat))
        await self.call(0, commands.Connection.Open(virtual_host=vhost), commands.Connection.OpenOk)
        self._ticker = self.loop.call_later(TICK_SECONDS, self._tick)

    async def channel(self, *, confirm: bool = True, consuming: bool = False) -> Channel:
        """Open a channel, in confirm mode unless ``confirm`` is False (a channel that never publishes); a
        :class:`ConsumingChannel` when CONSUMING."""
        if self.closed is not None:
            raise self.closed
        number = next((n for n in range(1, self.channel_max + 1)
                       if n not in self._channels and n not in self._waiters), None)
        if number is None:
            raise AmqpClosed(504, "CHANNEL_ERROR: no free channel number on this connection", "connection")
        channel = self._channels[number] = (ConsumingChannel if consuming else Channel)(self, number)
        try:
            await self.call(number, commands.Channel.Open(), commands.Channel.OpenOk)
            if confirm:
                await self.call(number, commands.Confirm.Select(), commands.Confirm.SelectOk)
        except BaseException as exc:
            self._channels.pop(number, None)
            channel.fail(exc)
            raise
        return channel

    def forget(self, number: int) -> None:
        """A channel the client closed: its number is free again."""
        self._channels.pop(number, None)

    def _tick(self) -> None:
        now = time.monotonic()
        for channel in list(self._channels.values()):
            channel.expire(now)
        if self.heartbeat:
            if now - self._last_read > 2 * self.heartbeat:
                self._end(AmqpConnectionLost("the broker missed its heartbeats"))
                return
            if now - self._last_write >= self.heartbeat / 2:
                self.send([HEARTBEAT_FRAME])
        self._ticker = self.loop.call_later(TICK_SECONDS, self._tick)

    def _end(self, exc: BaseException) -> None:
        """Fail everything still waiting with ``exc`` and drop the socket (once)."""
        if self.closed is not None:
            return
        self.closed = exc
        if self._ticker is not None:
            self._ticker.cancel()
        for channel in list(self._channels.values()):
            channel.fail(exc)
        self._channels.clear()
        for number in list(self._waiters):
            self._resolve(number, exc)
        if self._transport is not None:
            self._transport.close()

    async def close(self, timeout: float = 2.0) -> None:
        """Close politely (connection.close, wait for close-ok), then drop the socket."""
        if self.closed is None:
            try:
                await asyncio.wait_for(self.call(0, commands.Connection.Close(reply_code=200, reply_text="bye", class_id=0, method_id=0),
                                                  commands.Connection.CloseOk), timeout)
            except (Exception, asyncio.CancelledError):  # noqa: BLE001 (a dead connection may fail in many ways)
                pass
        self._end(AmqpConnectionLost("closed by the client"))

    def abort(self) -> None:
        self._end(AmqpConnectionLost("aborted by the client"))
        if self._transport is not None:
            self._transport.abort()


HEARTBEAT_FRAME = Heartbeat().marshal()
CLIENT_PROPERTIES = {
    "product": "streaming-hub",
    "capabilities": {"publisher_confirms": True, "authentication_failure_close": True,
                     "connection.blocked": True, "basic.nack": True,
                     "consumer_cancel_notify": True},
}


async def connect(*, address: str, port: int, username: str, password: str, vhost: str, timeout: float,
                  ssl: Any = None, server_hostname: str | None = None) -> AmqpConnection:
    """Connect to ``address`` (already checked by the caller) and log in; raises on failure."""
    loop = asyncio.get_running_loop()
    connection = AmqpConnection(loop)
    async with asyncio.timeout(timeout):
        await loop.create_connection(lambda: connection, address, port, ssl=ssl,
                                     server_hostname=server_hostname if ssl else None)
        try:
            await connection._open(username=username, password=password, vhost=vhost)
        except BaseException:
            connection.abort()
            raise
    return connection

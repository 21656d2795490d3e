"""The channel side of the hub's AMQP client: confirming channels, exchange.declare and the content-header encoding.

A publish's method frame is encoded once per channel and route (pamqp), its content header by
:class:`PropertiesEncoder`; each publish gets one future, resolved by its own confirm (a ``multiple``
ack resolves every tag up to its own), by a ``basic.return`` matched on ``message_id``
(:data:`RETURNED`), or failed by the end of its channel or connection, or by its deadline.
The connection that carries the frames is :mod:`hub.amqp.client`.
"""

from __future__ import annotations

import asyncio
import struct
import time
from collections.abc import Mapping
from typing import Any, Protocol

from pamqp import commands, frame

# The frame vocabulary every part of the client shares: frame types, the end octet, the head.
FRAME_END = 0xCE
METHOD, HEADER, BODY, HEARTBEAT = 1, 2, 3, 8
RETURNED = "returned"  # a publish's result when the broker returned it (mandatory, no queue bound)
FRAME_HEAD = struct.Struct(">BHI")


class AmqpClosed(Exception):
    """The broker closed the connection or a channel: its reply code and text."""

    def __init__(self, code: int, text: str, scope: str) -> None:
        super().__init__(f"{scope} closed by the broker: {code} {text}")
        self.code, self.text, self.scope = code, text, scope


class AmqpConnectionLost(ConnectionError):
    """The connection ended (socket closed, reset, or heartbeats missed)."""


def shortstr(value: str) -> bytes:
    raw = value.encode()
    if len(raw) > 255:
        raise ValueError("an AMQP short string is at most 255 bytes")
    return bytes((len(raw),)) + raw


def _longstr(value: str) -> bytes:
    raw = value.encode()
    return struct.pack(">I", len(raw)) + raw


class PropertiesEncoder:
    """Basic properties as the content header frame carries them, for string-valued headers only.

    Only the names' encodings are cached: every value is written per message.
    """

    # Flag bits of the fields this encoder writes, in wire order.
    CONTENT_TYPE, HEADERS, DELIVERY_MODE, MESSAGE_ID, TYPE, APP_ID = 15, 13, 12, 7, 5, 3

    def __init__(self) -> None:
        self._names: dict[str, bytes] = {}

    def _name(self, name: str) -> bytes:
        encoded = self._names.get(name)
        if encoded is None:
            if len(name.encode()) > 128:
                raise ValueError("an AMQP field table name is at most 128 bytes")
            encoded = self._names[name] = shortstr(name) + b"S"
        return encoded

    def template(self, *, content_type: str, headers: Mapping[str, str], delivery_mode: int,
                 message_type: str | None, app_id: str) -> tuple[bytes, bytes]:
        """The encoding before and after the message id, which is the one field that differs per message."""
        table = b"".join(self._name(name) + _longstr(value) for name, value in headers.items())
        flags = (1 << self.CONTENT_TYPE) | (1 << self.HEADERS) | (1 << self.DELIVERY_MODE) | (1 << self.MESSAGE_ID) \
            | (1 << self.APP_ID) | ((1 << self.TYPE) if message_type else 0)
        before = b"".join((struct.pack(">H", flags), shortstr(content_type), struct.pack(">I", len(table)), table,
                           bytes((delivery_mode,))))
        return before, (shortstr(message_type) if message_type else b"") + shortstr(app_id)

    def encode(self, *, content_type: str, headers: Mapping[str, str], delivery_mode: int, message_id: str,
               message_type: str | None, app_id: str) -> bytes:
        before, after = self.template(content_type=content_type, headers=headers, delivery_mode=delivery_mode,
                                      message_type=message_type, app_id=app_id)
        return before + shortstr(message_id) + after


class FrameLink(Protocol):
    """What a channel needs of the connection that carries its frames (``hub.amqp.client.AmqpConnection``)."""

    loop: asyncio.AbstractEventLoop
    closed: BaseException | None
    frame_max: int

    def send(self, frames: list[bytes]) -> None: ...

    async def call(self, channel: int, method: Any, reply: type) -> Any: ...

    def forget(self, channel: int) -> None: ...


class Channel:
    """A channel; on a confirming one ``publish`` returns a future of True (ack), False (nack) or :data:`RETURNED`."""

    def __init__(self, connection: FrameLink, number: int) -> None:
        self.connection, self.number = connection, number
        self.closed: BaseException | None = None
        self._next_tag, self._oldest = 1, 1
        self._pending: dict[int, tuple[asyncio.Future, float, str]] = {}
        self._by_message_id: dict[str, list[int]] = {}
        self._routes: dict[tuple[str, str, bool], bytes] = {}

    @property
    def is_closed(self) -> bool:
        return self.closed is not None or self.connection.closed is not None

    def publish(self, *, exchange: str, routing_key: str, properties: bytes, message_id: str, body: bytes,
                timeout: float, mandatory: bool = True) -> asyncio.Future:
        """Queue one publish (``mandatory`` unless told not) for this turn's write; its future settles with
        its confirm. A publish that is not mandatory and that no queue takes is dropped by the broker."""
        future = self.connection.loop.create_future()
        failure = self.closed or self.connection.closed
        if failure is not None:
            future.set_exception(failure)
            return future
        method = self._routes.get((exchange, routing_key, mandatory))
        if method is None:
            method = self._routes[(exchange, routing_key, mandatory)] = frame.marshal(
                commands.Basic.Publish(exchange=exchange, routing_key=routing_key, mandatory=mandatory), self.number)
        header = struct.pack(">HHQ", 60, 0, len(body)) + properties
        frames = [method, FRAME_HEAD.pack(HEADER, self.number, len(header)), header, b"\xce"]
        step = self.connection.frame_max - 8
        for offset in range(0, len(body), step):
            chunk = body[offset:offset + step]
            frames += [FRAME_HEAD.pack(BODY, self.number, len(chunk)), chunk, b"\xce"]
        tag, self._next_tag = self._next_tag, self._next_tag + 1
        self._pending[tag] = (future, time.monotonic() + timeout, message_id)
        self._by_message_id.setdefault(message_id, []).append(tag)
        self.connection.send(frames)
        return future

    async def exchange_declare(self, exchange: str, *, passive: bool, exchange_type: str = "direct",
                               durable: bool = True) -> None:
        """Declare ``exchange``, or with ``passive`` only check that it exists.

        A passive declare of a missing exchange makes the broker close this channel: that raises
        :class:`AmqpClosed` with code 404 and scope ``channel`` (the connection stays open).
        """
        await self._call(commands.Exchange.Declare(
            exchange=exchange, exchange_type=exchange_type, passive=passive, durable=durable),
            commands.Exchange.DeclareOk)

    async def _call(self, method: Any, reply: type) -> Any:
        """Send a synchronous METHOD on this channel and await its REPLY; raises when the channel has ended."""
        failure = self.closed or self.connection.closed
        if failure is not None:
            raise failure
        return await self.connection.call(self.number, method, reply)

    def _settle(self, tag: int, value: Any) -> None:
        entry = self._pending.pop(tag, None)
        if entry is None:
            return
        future, _, message_id = entry
        tags = self._by_message_id.get(message_id)
        if tags is not None:
            tags.remove(tag)
            if not tags:
                del self._by_message_id[message_id]
        if not future.done():
            future.set_result(value) if not isinstance(value, BaseException) else future.set_exception(value)

    def on_confirm(self, tag: int, multiple: bool, ok: bool) -> None:
        if not multiple:
            self._settle(tag, ok)
            return
        for each in range(self._oldest, tag + 1):
            self._settle(each, ok)
        self._oldest = max(self._oldest, tag + 1)

    def on_content(self, kind: int, payload: bytes) -> None:
        """A delivery's frame: a publishing channel consumes nothing (:mod:`hub.amqp.consuming` does)."""

    def on_cancel(self) -> None:
        """The broker cancelled a consumer: a publishing channel has none."""

    def on_return(self, message_id: str | None) -> None:
        """The broker returned a message: its publish resolves as RETURNED (its ack follows and is ignored)."""
        for tag in self._by_message_id.get(message_id or "", ()):
            future = self._pending[tag][0]
            if not future.done():
                future.set_result(RETURNED)
                return

    def fail(self, exc: BaseException) -> None:
        """The channel ended: every publish still waiting fails with ``exc``."""
        self.closed = self.closed or exc
        for tag in list(self._pending):
            self._settle(tag, exc)

    def expire(self, now: float) -> None:
        for tag, (_, deadline, _) in list(self._pending.items()):
            if deadline <= now:
                self._settle(tag, TimeoutError("no confirm in time"))



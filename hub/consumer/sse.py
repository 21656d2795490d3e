"""Server-Sent Events for the consumer streams: the seed's framing, the stream loops, and the response.

Every frame carries ``id: <token>`` (the queue id), so a browser's automatic reconnect sends the token
back as ``Last-Event-ID``. An error after the stream opened cannot be an HTTP status any more: it is an
``error`` event with ``{"message", "status_code"}``, and then the stream ends (the seed's rule). The
response closes the stream's channel however it ends, so what was not acknowledged is requeued.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import AsyncIterator, Awaitable, Callable
from typing import Any

import anyio
import orjson
from starlette.responses import StreamingResponse
from starlette.types import Receive, Scope, Send

from hub.config import get_settings
from hub.consumer.stream import Stream
from hub.errors import HubError

log = logging.getLogger("hub.consumer.sse")
KEEPALIVE_SECONDS = 15.0  # a comment after this much silence keeps proxies and load balancers from timing out
KEEPALIVE = b": keepalive\n\n"
CONNECTED_MESSAGE = "Connection established"
INTERNAL_MESSAGE = "Internal Server Error"


def frame(event: str, data: Any, token: str) -> bytes:
    """One SSE event: its name, the token as its id, and its data as compact JSON on one line."""
    return b"event: " + event.encode() + b"\nid: " + token.encode() + b"\ndata: " + orjson.dumps(data) + b"\n\n"


def connected(token: str) -> bytes:
    return frame("connected", {"message": CONNECTED_MESSAGE, "reconnect_token": token}, token)


def error_frame(exc: BaseException, token: str) -> bytes:
    """The ``error`` event that ends an open stream, with the status the error would have had."""
    if isinstance(exc, HubError):
        return frame("error", {"message": exc.detail, "status_code": exc.status}, token)
    log.exception("consumer stream %s failed", token, exc_info=exc)
    return frame("error", {"message": INTERNAL_MESSAGE, "status_code": 500}, token)


async def _deliveries(stream: Stream, token: str, after_write: Callable[[list[int]], Awaitable[None]],
                      ) -> AsyncIterator[bytes]:
    """The stream's events as frames, a keepalive after each quiet spell; AFTER_WRITE gets each batch's tags."""
    loop = asyncio.get_running_loop()
    last = loop.time()
    while True:
        batch = await stream.next_batch()
        if batch:
            yield b"".join(frame("event", delivery.event.as_json(), token) for delivery in batch)
            await after_write([delivery.tag for delivery in batch])
            last = loop.time()
        elif loop.time() - last >= KEEPALIVE_SECONDS:
            yield KEEPALIVE
            last = loop.time()


async def _framed(stream: Stream, token: str, after_write: Callable[[list[int]], Awaitable[None]],
                  ) -> AsyncIterator[bytes]:
    yield connected(token)
    try:
        async for chunk in _deliveries(stream, token, after_write):
            yield chunk
    except Exception as exc:  # noqa: BLE001 (the stream is open: every error becomes its error event)
        yield error_frame(exc, token)


def non_durable_frames(stream: Stream, token: str) -> AsyncIterator[bytes]:
    """A non-durable stream: each batch is acknowledged once it was written."""

    async def acknowledge(tags: list[int]) -> None:
        await stream.settle(acks=tags)

    return _framed(stream, token, acknowledge)


def durable_frames(stream: Stream, token: str) -> AsyncIterator[bytes]:
    """A durable stream: each batch is acknowledged after the auto-ack delay (as ``ConsumeDurableEvents``)."""
    delay, pending = get_settings().consumer_autoack_delay_seconds, set[asyncio.Task]()

    async def acknowledge_later(tags: list[int]) -> None:
        task = asyncio.create_task(stream.ack_later(tags, delay))
        pending.add(task)  # held until done: the loop keeps only weak references to tasks
        task.add_done_callback(pending.discard)

    return _framed(stream, token, acknowledge_later)


class EventStreamResponse(StreamingResponse):
    """``text/event-stream`` whose ``close`` runs however the response ends (finished, failed, disconnected)."""

    media_type = "text/event-stream"

    def __init__(self, content: AsyncIterator[bytes], *, close: Callable[[], Awaitable[Any]]) -> None:
        super().__init__(content, headers={"Cache-Control": "no-cache", "X-Accel-Buffering": "no"})
        self._close = close

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        try:
            await super().__call__(scope, receive, send)
        finally:
            with anyio.CancelScope(shield=True):  # a disconnect cancels the response; the close must still run
                with contextlib.suppress(Exception):
                    await self.body_iterator.aclose()  # type: ignore[attr-defined]
                await self._close()

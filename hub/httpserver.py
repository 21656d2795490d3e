"""The HTTP/1.1 protocol ``hub api`` serves with: uvicorn's httptools protocol, one write per answer.

Why: uvicorn writes an answer's head (status line and headers) and its body with two
``transport.write`` calls, and uvloop sends each at once, so every answer cost two ``send`` system
calls and reached the client as two segments (N110). Here a request's transport holds the head and
sends it with the body's first write, which a Starlette ``Response`` makes right after the head, in
the same step of its task. A head whose body does not follow within that step (a stream waiting for
its first event) leaves on the loop's next turn, so no client waits longer for a head than before.
Every byte on the wire, and the order of the bytes, is as uvicorn writes them.
"""

from __future__ import annotations

import asyncio
from typing import Any

try:
    from uvicorn.protocols.http.httptools_impl import HttpToolsProtocol, RequestResponseCycle
except ImportError:  # pragma: no cover (httptools is a dependency; uvicorn's default serves without it)
    HttpToolsProtocol = RequestResponseCycle = None  # type: ignore[assignment,misc]


class HeldHead:
    """One request's view of its connection's transport: the answer's head waits for the next write.

    The head is the first write the request's cycle makes once it has started its answer (a
    ``100 Continue`` is written before that, and at once).
    """

    def __init__(self, transport: asyncio.Transport, cycle: Any, loop: asyncio.AbstractEventLoop) -> None:
        self._transport, self._cycle, self._loop = transport, cycle, loop
        self._held: bytes | None = None

    def write(self, data: bytes) -> None:
        """Hold the head (until the next write, or the loop's next turn); write anything else with it."""
        cycle = self._cycle
        if cycle is not None and cycle.response_started:
            # The cycle refers to this transport: drop it, so the pair is freed without the cyclic collector.
            self._cycle, self._held = None, data
            self._loop.call_soon(self.flush)  # a body that does not follow at once must not hold the head
            return
        if self._held is not None:
            data, self._held = self._held + data, None
        self._transport.write(data)

    def flush(self) -> None:
        """Write the held head, if it is still held."""
        if self._held is not None:
            held, self._held = self._held, None
            self._transport.write(held)

    def close(self) -> None:
        """Write the held head, then close: the client sees what uvicorn wrote before it closed."""
        self.flush()
        self._transport.close()

    def __getattr__(self, name: str) -> Any:
        return getattr(self._transport, name)


if HttpToolsProtocol is not None:
    class OneWriteProtocol(HttpToolsProtocol):  # type: ignore[misc,valid-type]
        """uvicorn's httptools protocol whose requests write each answer's head with its body."""

        def _start_asgi_task(self, cycle: RequestResponseCycle, app: Any) -> None:
            cycle.transport = HeldHead(cycle.transport, cycle, self.loop)  # type: ignore[assignment]
            super()._start_asgi_task(cycle, app)
else:  # pragma: no cover
    OneWriteProtocol = None  # type: ignore[assignment,misc]


def http_protocol() -> str:
    """The ``http`` setting to give uvicorn: :class:`OneWriteProtocol`, or ``auto`` without httptools."""
    return f"{__name__}:OneWriteProtocol" if OneWriteProtocol is not None else "auto"

"""A plain SSE client for the tests: an httpx stream read on a thread, its frames parsed by the SSE rules
(``event:``, ``id:``, ``data:`` lines up to a blank line; ``:`` starts a comment), so a test can wait with a
timeout and hang up like a browser tab that closes (the socket is shut down under the reader)."""

from __future__ import annotations

import contextlib
import queue
import socket
import threading
import time
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

import httpx
import orjson

END = object()


@dataclass(frozen=True)
class Frame:
    event: str  # "comment" for a comment line (the keepalive)
    id: str | None
    data: str

    def json(self) -> Any:
        return orjson.loads(self.data)


def frames_of(lines: Iterator[str]) -> Iterator[Frame]:
    """The frames of an SSE body's lines."""
    event, ident, data = "message", None, []
    for line in lines:
        if line.startswith(":"):
            yield Frame("comment", None, line[1:].strip())
        elif not line:
            if data or event != "message":
                yield Frame(event, ident, "\n".join(data))
            event, data = "message", []
        else:
            name, _, value = line.partition(":")
            value = value.removeprefix(" ")
            if name == "event":
                event = value
            elif name == "id":
                ident = value
            elif name == "data":
                data.append(value)


class SSE:
    """``GET base+path`` as an event stream. ``status``/``body`` when it was refused, ``next`` otherwise."""

    def __init__(self, base: str, path: str, token: str | None, *, params: dict[str, str] | None = None,
                 headers: dict[str, str] | None = None) -> None:
        self.request = (base, path, token, params or {}, headers or {})
        self.status: int | None = None
        self.headers: httpx.Headers = httpx.Headers()
        self.body = b""
        self._frames: queue.Queue[Any] = queue.Queue()
        self._opened = threading.Event()
        self._socket: socket.socket | None = None
        self._thread = threading.Thread(target=self._run, daemon=True)
        self._thread.start()
        assert self._opened.wait(30), "the stream did not answer within 30 s"

    def _run(self) -> None:
        base, path, token, params, headers = self.request
        if token is not None:
            headers = {"Authorization": f"Bearer {token}", **headers}
        try:
            with httpx.Client(base_url=base, timeout=httpx.Timeout(30, read=None)) as client, \
                    client.stream("GET", path, params=params, headers=headers) as response:
                self.status, self.headers = response.status_code, response.headers
                self._socket = response.extensions["network_stream"].get_extra_info("socket")
                if response.status_code != 200:
                    self.body = response.read()
                    return
                self._opened.set()
                for item in frames_of(response.iter_lines()):
                    self._frames.put(item)
        except (httpx.HTTPError, OSError):
            pass  # hung up (by close) or cut off: the stream ended
        finally:
            self._opened.set()
            self._frames.put(END)

    def json(self) -> Any:
        return orjson.loads(self.body)

    def next(self, timeout: float = 30.0, *, comments: bool = False) -> Frame:
        """The next frame (keepalive comments skipped unless COMMENTS); AssertionError on timeout or end."""
        deadline = time.monotonic() + timeout
        while True:
            try:
                item = self._frames.get(timeout=max(deadline - time.monotonic(), 0.01))
            except queue.Empty:
                raise AssertionError(f"no frame within {timeout} s") from None
            if item is END:
                self._frames.put(END)
                raise AssertionError("the stream ended")
            if comments or item.event != "comment":
                return item

    def events(self, count: int, timeout: float = 30.0) -> list[Frame]:
        """The next COUNT ``event`` frames."""
        deadline = time.monotonic() + timeout
        found = []
        while len(found) < count:
            item = self.next(max(deadline - time.monotonic(), 0.01))
            assert item.event == "event", f"expected an event frame, got {item}"
            found.append(item)
        return found

    def quiet(self, seconds: float) -> list[Frame]:
        """The non-comment frames that arrive within SECONDS (expecting none, usually)."""
        deadline, seen = time.monotonic() + seconds, []
        while (left := deadline - time.monotonic()) > 0:
            try:
                item = self._frames.get(timeout=left)
            except queue.Empty:
                break
            if item is END:
                self._frames.put(END)
                break
            if item.event != "comment":
                seen.append(item)
        return seen

    def ended(self, timeout: float = 30.0) -> None:
        self._thread.join(timeout)
        assert not self._thread.is_alive(), f"the stream did not end within {timeout} s"

    def close(self) -> None:
        """Hang up: shut the socket down under the reader (a closed tab), then wait for it."""
        if self._socket is not None:
            with contextlib.suppress(OSError):
                self._socket.shutdown(socket.SHUT_RDWR)
        self._thread.join(10)

    def __enter__(self) -> SSE:
        return self

    def __exit__(self, *_: object) -> None:
        self.close()

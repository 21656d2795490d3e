"""Sync gRPC stream clients for the tests, written the way the seed's examples write them: a request
generator fed from a ``queue.Queue``, responses read on a thread so a test can wait with a timeout."""

from __future__ import annotations

import queue
import threading
import time
from collections.abc import Iterator
from typing import Any

import grpc

END = object()


class Reader:
    """Responses of a streaming call, collected on a thread; ``error`` is the call's end status."""

    def __init__(self, call: Any) -> None:
        self.call = call
        self.responses: queue.Queue[Any] = queue.Queue()
        self.error: grpc.RpcError | None = None
        self._thread = threading.Thread(target=self._drain, daemon=True)
        self._thread.start()

    def _drain(self) -> None:
        try:
            for response in self.call:
                self.responses.put(response)
        except grpc.RpcError as error:
            self.error = error
        self.responses.put(END)

    def next(self, timeout: float = 20.0) -> Any:
        """The next response; AssertionError on timeout, the call's RpcError when it ended."""
        try:
            item = self.responses.get(timeout=timeout)
        except queue.Empty:
            raise AssertionError(f"no response within {timeout} s") from None
        if item is END:
            self.responses.put(END)
            if self.error is not None:
                raise self.error
            raise AssertionError("the stream ended")
        return item

    def quiet(self, seconds: float) -> list[Any]:
        """Every response that arrives within SECONDS (expecting none, usually)."""
        deadline, seen = time.monotonic() + seconds, []
        while (left := deadline - time.monotonic()) > 0:
            try:
                item = self.responses.get(timeout=left)
            except queue.Empty:
                break
            if item is END:
                self.responses.put(END)
                break
            seen.append(item)
        return seen

    def ended(self, timeout: float = 20.0) -> grpc.RpcError:
        """Wait for the call to end with an error status and return it."""
        self._thread.join(timeout)
        assert not self._thread.is_alive(), f"the stream did not end within {timeout} s"
        assert self.error is not None, "the stream ended without an error status"
        return self.error

    def close(self) -> None:
        self.call.cancel()
        self._thread.join(5)


class Requests:
    """A request stream: the opening message, then whatever ``send`` adds, until ``finish``."""

    def __init__(self, first: Any) -> None:
        self._queue: queue.Queue[Any] = queue.Queue()
        self._first = first

    def __iter__(self) -> Iterator[Any]:
        yield self._first
        while (item := self._queue.get()) is not None:
            yield item

    def send(self, request: Any) -> None:
        self._queue.put(request)

    def finish(self) -> None:
        self._queue.put(None)


def events_of(reader: Reader, count: int, timeout: float = 30.0) -> list[Any]:
    """COUNT responses' events (each durable-with-acks response carries one event)."""
    found: list[Any] = []
    deadline = time.monotonic() + timeout
    while len(found) < count:
        response = reader.next(timeout=max(deadline - time.monotonic(), 0.1))
        found.extend((response, event) for event in response.events)
    return found

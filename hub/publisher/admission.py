"""Backpressure: a bound on the events one process has waiting for the backbone's acknowledgements.

Past ``publisher_max_inflight_events`` a publish is refused at once with :class:`Overloaded`
(503 with ``Retry-After`` / ``RESOURCE_EXHAUSTED``) instead of queueing: when the broker is slow
or away, the waits pile up here, and a bound keeps them (and the producer's local queue) from
growing without limit. Every caller runs on its process's event loop, so a plain counter is enough.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager

from hub.config import get_settings
from hub.errors import ServiceUnavailable


class Overloaded(ServiceUnavailable):
    code, default_detail = "publisher_overloaded", "the service is temporarily overloaded; retry with backoff"

    def __init__(self) -> None:
        super().__init__(headers={"Retry-After": str(get_settings().publisher_retry_after_seconds)})


_inflight = {"events": 0}


def inflight_events() -> int:
    """Events of this process now waiting for acknowledgements."""
    return _inflight["events"]


@contextmanager
def admitted(count: int) -> Iterator[None]:
    """Hold COUNT events' room while they are published; Overloaded when the room is not there."""
    if _inflight["events"] + count > get_settings().publisher_max_inflight_events:
        raise Overloaded()
    _inflight["events"] += count
    try:
        yield
    finally:
        _inflight["events"] -= count

"""The one poll-until helper of the test suite: wait for something another process or thread does."""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import TypeVar

T = TypeVar("T")


def wait_until(predicate: Callable[[], T], timeout: float = 45.0, interval: float = 0.2, message: str = "") -> T:
    """Call ``predicate`` every ``interval`` seconds until it returns a truthy value, and return that value.

    It is called at least once, and once more at the deadline. After ``timeout`` seconds an
    AssertionError names ``message`` (what was awaited) and the last value seen.
    """
    deadline = time.monotonic() + timeout
    while True:
        value = predicate()
        if value:
            return value
        if time.monotonic() >= deadline:
            raise AssertionError(f"timed out after {timeout:g} s waiting for {message or 'the condition'}; "
                                 f"last value {value!r}")
        time.sleep(min(interval, max(deadline - time.monotonic(), 0.0)))

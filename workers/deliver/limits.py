"""The engine's own request limits: one per process and one per destination, taken with a deadline."""

from __future__ import annotations

import asyncio
from collections import defaultdict


class Limits:
    """The process-wide request limit and one limit per destination."""

    def __init__(self, total: int, per_destination: int, wait_seconds: float) -> None:
        self.total = asyncio.Semaphore(max(1, total))
        self.per_destination_size = max(1, per_destination)
        self.per_destination: defaultdict[str, asyncio.Semaphore] = defaultdict(
            lambda: asyncio.Semaphore(self.per_destination_size))
        self.wait_seconds = wait_seconds

    def free(self, key: str) -> int:
        """The free request slots of destination ``key`` (all of them before its first request)."""
        semaphore = self.per_destination.get(key)
        # asyncio.Semaphore has no public count; its owner reads it here and nowhere else.
        return semaphore._value if semaphore is not None else self.per_destination_size  # noqa: SLF001


async def acquire(semaphore: asyncio.Semaphore, deadline: float) -> bool:
    """Take a slot, waiting at most until the loop time ``deadline``; False when it stayed busy.

    ``asyncio.timeout_at`` rather than ``wait_for``: on this Python ``wait_for`` wraps the wait in a
    task of its own. A free slot is taken without a timer at all.
    """
    if not semaphore.locked():
        await semaphore.acquire()  # free: returns without suspending
        return True
    try:
        async with asyncio.timeout_at(deadline):
            await semaphore.acquire()
    except TimeoutError:
        return False
    return True

"""Hanging destinations, told apart from busy ones (N98), in one ``hub deliver`` process.

A destination is **busy** while its requests end, however many are out; it **hangs** when requests are
out and none has ended for ``after_seconds``. A hanging destination's lanes then take at most its free
request slots in a claim (none free: they wait for the next claim), and its sends never hold a batch's
record: its time-outs occupy its own slots and nothing else of the process.
"""

from __future__ import annotations

import asyncio
import uuid
from collections import defaultdict
from collections.abc import Callable
from dataclasses import dataclass


@dataclass
class _Destination:
    out: int = 0  # requests in flight
    since: float = 0.0  # when the last request ended, or (if later) when the first of those out began


class Stalls:
    """Requests out and ended per destination key, and the subscriptions that send to each."""

    def __init__(self, after_seconds: float) -> None:
        self.after_seconds = after_seconds
        self.destinations: defaultdict[str, _Destination] = defaultdict(_Destination)
        self.lanes: defaultdict[str, set[uuid.UUID]] = defaultdict(set)

    def _now(self) -> float:
        return asyncio.get_running_loop().time()

    def began(self, key: str, count: int) -> None:
        """``count`` requests to ``key`` went out."""
        destination = self.destinations[key]
        if destination.out == 0:
            destination.since = self._now()
        destination.out += count

    def ended(self, key: str, count: int) -> None:
        """``count`` requests to ``key`` ended (answered, failed or timed out)."""
        destination = self.destinations[key]
        destination.out -= count
        destination.since = self._now()

    def place(self, subscription_id: uuid.UUID, key: str) -> None:
        """A subscription sends to ``key``."""
        self.lanes[key].add(subscription_id)

    def hanging(self, key: str) -> bool:
        """Whether requests to ``key`` are out and none ended for ``after_seconds``."""
        destination = self.destinations.get(key)
        return (destination is not None and destination.out > 0
                and self._now() - destination.since > self.after_seconds)

    def caps(self, free_slots: Callable[[str], int]) -> dict[uuid.UUID, int]:
        """The most jobs each lane of a hanging destination may claim: the destination's free slots."""
        caps: dict[uuid.UUID, int] = {}
        for key, destination in self.destinations.items():
            if destination.out and self.hanging(key):
                free = free_slots(key)
                caps.update((sub, free) for sub in self.lanes.get(key, ()))
        return caps

    def busy(self, threshold: int) -> dict[uuid.UUID, int]:
        """Every lane of a destination with ``threshold`` or more requests out, capped at no job (N98: the
        express claim leaves them to the pipelines)."""
        return {sub: 0 for key, destination in self.destinations.items() if destination.out >= threshold
                for sub in self.lanes.get(key, ())}

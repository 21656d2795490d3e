"""How many of a recovery's jobs (bulk priority, N58) one ``hub deliver`` process may claim now (N62).

A token bucket shared by the process's claim loops: ``rate`` jobs a second, at most ``burst`` banked.
Live jobs are claimed first in every claim already; this bounds the rest, so a recovery of 100,000
jobs takes the CPU a live stream needs only at a set pace. Loops that claim at the same moment may
overspend; the bucket then goes below zero and the next bulk claims wait for it to refill.
"""

from __future__ import annotations

import time
from collections.abc import Callable


class BulkAllowance:
    """``rate`` bulk jobs a second (0: no limit), up to ``burst`` at once."""

    def __init__(self, rate: float, burst: int, clock: Callable[[], float] = time.monotonic) -> None:
        self.rate, self.burst, self._clock = rate, burst, clock
        self._tokens, self._at = float(burst), clock()

    def available(self) -> int:
        """How many bulk jobs the next claim may take."""
        if self.rate <= 0:
            return self.burst
        now = self._clock()
        self._tokens = min(float(self.burst), self._tokens + (now - self._at) * self.rate)
        self._at = now
        return max(0, int(self._tokens))

    def spend(self, count: int) -> None:
        """COUNT bulk jobs were claimed."""
        if self.rate > 0:
            self._tokens -= count

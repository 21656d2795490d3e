"""Checked addresses that connections are pinned to: the destination check's answer per (host, port).

A client pinned to an address (hub.egress.pinned) connects only there, so a name that rebinds after
the check is never reached at its new address. The check is run again, as the aiohttp path ran it
for every new connection, whenever the pool may have to open one to a fresh answer:

- the pin went unused for the pool's idle time (its connections are closed by then);
- the last answer closed its connection (``Connection: close``, a cut body) or the exchange failed;
- the pin is older than :data:`RECHECK_SECONDS`, so a busy destination still follows its DNS.

A refusal is never kept: the next delivery checks again. Concurrent first requests share one check.
"""

from __future__ import annotations

import asyncio
import time
from dataclasses import dataclass

from hub.egress.addresses import IPAddress
from hub.egress.check import ResolvedDestination, check_host
from hub.egress.refusal import EgressRefused
from hub.errors import HubError

RECHECK_SECONDS = 30.0
MAX_PINS = 4096

PinKey = tuple[str, int]  # (host, port)


@dataclass(slots=True)
class Pin:
    """The checked addresses of one destination, which one is in use, and when it was checked and used."""

    addresses: tuple[IPAddress, ...]
    checked_at: float
    used_at: float
    offset: int = 0

    @property
    def address(self) -> IPAddress:
        return self.addresses[self.offset]


class CheckedPins:
    """The pinned address of each destination, checked by the egress guard (hub.egress.check)."""

    def __init__(self, *, idle_seconds: float, recheck_seconds: float = RECHECK_SECONDS,
                 max_pins: int = MAX_PINS) -> None:
        self._idle = idle_seconds
        self._recheck = recheck_seconds
        self._max = max_pins
        self._pins: dict[PinKey, Pin] = {}
        self._checks: dict[PinKey, asyncio.Future[ResolvedDestination]] = {}

    async def address(self, host: str, port: int) -> IPAddress:
        """The address to connect to for ``host:port``, checked now or still valid (raises EgressRefused)."""
        key = (host, port)
        now = time.monotonic()
        pin = self._pins.get(key)
        if pin is not None and now - pin.used_at < self._idle and now - pin.checked_at < self._recheck:
            pin.used_at = now
            return pin.address
        destination = await self._check(key)
        return self._store(key, destination.addresses).address

    async def _check(self, key: PinKey) -> ResolvedDestination:
        check = self._checks.get(key)
        if check is None:
            check = asyncio.ensure_future(asyncio.to_thread(check_host, *key))
            self._checks[key] = check
            check.add_done_callback(lambda done: self._checked(key, done))
        try:
            return await asyncio.shield(check)
        except HubError as exc:
            raise EgressRefused(exc) from None

    def _checked(self, key: PinKey, done: asyncio.Future[ResolvedDestination]) -> None:
        self._checks.pop(key, None)
        if not done.cancelled():
            done.exception()  # retrieved here too: every waiter may have gone (cancelled) before it ended

    def _store(self, key: PinKey, addresses: tuple[IPAddress, ...]) -> Pin:
        now = time.monotonic()
        self._pins.pop(key, None)
        if len(self._pins) >= self._max:
            del self._pins[next(iter(self._pins))]  # the least recently checked
        pin = self._pins[key] = Pin(addresses, checked_at=now, used_at=now)
        return pin

    def forget(self, host: str, port: int) -> None:
        """Check ``host:port`` again before its next request (its connection closed)."""
        self._pins.pop((host, port), None)

    def skip(self, host: str, port: int) -> None:
        """Move to the next checked address after a failed exchange; after the last one, check again."""
        pin = self._pins.get((host, port))
        if pin is None:
            return
        if pin.offset + 1 < len(pin.addresses):
            pin.offset += 1
        else:
            self.forget(host, port)

    def __len__(self) -> int:
        return len(self._pins)

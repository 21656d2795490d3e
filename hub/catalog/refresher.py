"""The background refresher thread the API process runs (started and stopped by the app lifespan)."""

from __future__ import annotations

import logging
import threading
from collections.abc import Iterator
from contextlib import contextmanager

from hub.catalog.feed import refresh_once
from hub.config import get_settings

log = logging.getLogger("hub.catalog")


class Refresher:
    """Runs ``refresh_once`` every ``catalog_refresh_seconds`` until stopped."""

    def __init__(self, interval_seconds: float) -> None:
        self.interval_seconds = interval_seconds
        self.rounds = 0
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, name="catalog-refresher", daemon=True)

    def start(self) -> None:
        self._thread.start()

    def stop(self, timeout_seconds: float = 10.0) -> None:
        self._stop.set()
        self._thread.join(timeout_seconds)

    def _run(self) -> None:
        while not self._stop.is_set():
            try:
                # only_due: other pods share the work; a producer refreshed moments ago is skipped.
                refresh_once(only_due=True)
            except Exception:  # noqa: BLE001 (the loop must survive any one bad round)
                log.exception("catalog refresh round failed")
            self.rounds += 1
            self._stop.wait(self.interval_seconds)


def refresher_wanted() -> bool:
    settings = get_settings()
    return settings.catalog_refresher_enabled and bool(settings.catalog_manifest_urls)


@contextmanager
def catalog_refresher() -> Iterator[Refresher | None]:
    """Run the refresher for the duration of the block when it is enabled and manifests are configured."""
    if not refresher_wanted():
        yield None
        return
    refresher = Refresher(get_settings().catalog_refresh_seconds)
    refresher.start()
    try:
        yield refresher
    finally:
        refresher.stop()

"""The consumer relay's process rides out a database outage in every loop it runs (workers.consumer_relay):
a sweep that finds PostgreSQL down logs and waits for its next round instead of ending the process."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable

import pytest

from hub.consumer.topology import ConsumerRabbit
from hub.db import get_engine
from workers.consumer_relay import sweep_loop


def test_the_idle_sweep_rides_out_an_unreachable_database(
        override_settings: Callable[..., None], caplog: pytest.LogCaptureFixture) -> None:
    override_settings(database_url="postgresql+psycopg://hub:hub@127.0.0.1:1/hub", consumer_sweep_seconds=0.05)
    get_engine.cache_clear()

    async def scenario() -> tuple[bool, int]:
        stop, rabbit = asyncio.Event(), ConsumerRabbit()
        task = asyncio.create_task(sweep_loop(stop, rabbit))
        try:
            for _ in range(200):
                failed = [r for r in caplog.records if r.getMessage() == "consumer sweep failed; next round retries"]
                if len(failed) >= 3 or task.done():
                    break
                await asyncio.sleep(0.05)
            alive = not task.done()
            stop.set()
            await task  # raises here if the loop ended on the fault
            return alive, len(failed)
        finally:
            await rabbit.close()

    try:
        with caplog.at_level(logging.WARNING, logger="hub.consumer.worker"):
            alive, failures = asyncio.run(scenario())
    finally:
        get_engine.cache_clear()
    assert alive and failures >= 3

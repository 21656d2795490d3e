"""``hub consumer-relay``: the relay (hub.consumer.relay) and the idle sweep of consumer queues, one process."""

from __future__ import annotations

import asyncio
import logging

from hub.config import get_settings
from hub.consumer.relay import run_relay
from hub.consumer.service import BROKER_FAULTS, sweep_idle
from hub.consumer.topology import Broker
from workers.runtime import WorkerRuntime, sleep_unless_stopped

log = logging.getLogger("hub.consumer.worker")


async def sweep_loop(stop: asyncio.Event, broker: Broker) -> None:
    """Sweep idle queues every ``consumer_sweep_seconds`` until STOP."""
    while not await sleep_unless_stopped(stop, get_settings().consumer_sweep_seconds):
        try:
            removed = await sweep_idle(broker=broker)
        except BROKER_FAULTS as exc:
            log.warning("consumer sweep failed; next round retries", extra={"fields": {"error": type(exc).__name__}})
            continue
        if removed:
            log.info("idle consumer queues removed", extra={"fields": {"removed": removed}})


async def main(runtime: WorkerRuntime) -> None:
    stop = runtime.async_stop_event()
    sweeper = Broker()
    try:
        await asyncio.gather(run_relay(stop), sweep_loop(stop, sweeper))
    finally:
        await sweeper.close()


def run() -> None:
    settings = get_settings()
    # Its /metrics listener (HUB_CONSUMER_RELAY_METRICS_PORT, 0: none) is what a container probe can reach.
    port, host = settings.relay_metrics_address()
    runtime = WorkerRuntime.start("consumer-relay", log_level=settings.log_level, metrics_port=port, metrics_host=host)
    asyncio.run(main(runtime))

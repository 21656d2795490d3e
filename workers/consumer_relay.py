"""``hub consumer-relay``: the relay (hub.consumer.relay) and the idle sweep of consumer queues, one process."""

from __future__ import annotations

import asyncio
import logging

from sqlalchemy.exc import SQLAlchemyError

from hub.config import get_settings
from hub.consumer.gauges import measure
from hub.consumer.relay import run_relay
from hub.consumer.service import BROKER_FAULTS, sweep_idle
from hub.consumer.topology import Broker
from workers.runtime import WorkerRuntime, sleep_unless_stopped

log = logging.getLogger("hub.consumer.worker")
# The gauges' period: a scrape interval's order. Each round is one query and a passive declare per queue.
MEASURE_SECONDS = 15.0


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


async def measure_loop(stop: asyncio.Event, broker: Broker) -> None:
    """Measure the relay's lag and the consumer queues' depth now and every MEASURE_SECONDS until STOP."""
    while True:
        try:
            await measure(broker)
        except (*BROKER_FAULTS, SQLAlchemyError) as exc:
            log.warning("consumer gauges not measured; next round retries",
                        extra={"fields": {"error": type(exc).__name__}})
        if await sleep_unless_stopped(stop, MEASURE_SECONDS):
            return


async def main(runtime: WorkerRuntime) -> None:
    stop = runtime.async_stop_event()
    broker = Broker()  # the sweep's and the gauges' connection; each call takes a channel of its own
    try:
        await asyncio.gather(run_relay(stop), sweep_loop(stop, broker), measure_loop(stop, broker))
    finally:
        await broker.close()


def run() -> None:
    settings = get_settings()
    # Its /metrics listener (HUB_INGEST_METRICS_PORT, 0: none) is what a container probe can reach.
    runtime = WorkerRuntime.start("consumer-relay", log_level=settings.log_level,
                                  metrics_port=settings.ingest_metrics_port, metrics_host=settings.ingest_metrics_host)
    asyncio.run(main(runtime))

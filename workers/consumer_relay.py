"""``hub consumer-relay``: the relay (hub.consumer.relay) and the idle sweep of consumer queues, one process.

The relay listens for ingest's notification of a stored batch (:data:`STORED_CHANNEL`, the tenant as
payload) on the shared listener, and relays the notified tenants; on (re)connecting, and after
``consumer_relay_poll_seconds`` without a notification, it relays every tenant with queues. Tenants it
found without queues are passed over until a queue's creation notifies the channel (N88). A fault of
PostgreSQL or RabbitMQ closes its connections; the listener reconnects after a backoff and the next round
starts from the cursors, so nothing is skipped.
"""

from __future__ import annotations

import asyncio
import logging

import orjson
import psycopg
from psycopg.types.json import set_json_loads
from sqlalchemy.exc import SQLAlchemyError

from hub.config import get_settings
from hub.consumer.gauges import measure
from hub.consumer.outlet import Outlet
from hub.consumer.projection import QUEUES_CHANGED, STORED_CHANNEL
from hub.consumer.relay import relay_round
from hub.consumer.service import BROKER_FAULTS, sweep_idle
from hub.consumer.topology import ConsumerRabbit
from hub.dataplane.listener import Notice, listen
from workers.runtime import TRANSIENT_DB_ERRORS, AsyncConnector, WorkerRuntime, sleep_unless_stopped

log = logging.getLogger("hub.consumer.worker")
# The gauges' period: a scrape interval's order. Each round is one query and a passive declare per queue.
MEASURE_SECONDS = 15.0
# What a sweep or a gauge round may meet while RabbitMQ or PostgreSQL restarts: logged, and the next round retries.
ROUND_FAULTS = (*BROKER_FAULTS, SQLAlchemyError, *TRANSIENT_DB_ERRORS)


class Relay:
    """The relay's connection to the event log and its channel to RabbitMQ, opened when first needed and
    dropped after a fault."""

    def __init__(self, connect: AsyncConnector) -> None:
        self._connect = connect
        self._conn: psycopg.AsyncConnection | None = None
        self._outlet: Outlet | None = None
        self._idle: set[str] = set()  # tenants found without queues: their notifications cost nothing (N88)

    async def on_notice(self, notice: Notice, _listening: psycopg.AsyncConnection) -> None:
        """Relay the notified tenants (every tenant with queues when anything may have happened)."""
        # A notification missed while disconnected may have been a queue's creation: look at every tenant.
        if notice.everything or QUEUES_CHANGED in notice.payloads:
            self._idle.clear()
        try:
            conn, outlet = await self._open()
            await relay_round(conn, outlet, None if notice.everything else set(notice.payloads - {QUEUES_CHANGED}),
                              self._idle)
        except BaseException:
            await self.close()
            raise

    async def _open(self) -> tuple[psycopg.AsyncConnection, Outlet]:
        if self._outlet is not None and self._outlet.is_closed:
            raise ConnectionError("the relay's channel closed")  # the broker went away: start over
        if self._conn is None:
            self._conn = await self._connect()
            set_json_loads(orjson.loads, self._conn)  # the stdlib's loads cost more than the rest of a row
        if self._outlet is None:
            self._outlet = await Outlet.open()
        return self._conn, self._outlet

    async def close(self) -> None:
        conn, outlet, self._conn, self._outlet = self._conn, self._outlet, None, None
        if outlet is not None:
            await outlet.close()
        if conn is not None and not conn.closed:
            await conn.close()


async def run_relay(stop: asyncio.Event, runtime: WorkerRuntime) -> None:
    """Relay until STOP is set; a fault of PostgreSQL or RabbitMQ reconnects and starts the round again."""
    relay = Relay(runtime.async_connector(role="relay"))
    try:
        await listen(STORED_CHANNEL, stop=stop, connect=runtime.async_connector(role="listen"),
                     on_notice=relay.on_notice, poll_seconds=get_settings().consumer_relay_poll_seconds,
                     on_lost=_relay_fault)
    finally:
        await relay.close()


def _relay_fault(exc: Exception) -> None:
    log.warning("consumer relay fault; retrying", extra={"fields": {"error": type(exc).__name__}})


async def sweep_loop(stop: asyncio.Event, broker: ConsumerRabbit) -> None:
    """Sweep idle queues every ``consumer_sweep_seconds`` until STOP."""
    while not await sleep_unless_stopped(stop, get_settings().consumer_sweep_seconds):
        try:
            removed = await sweep_idle(broker=broker)
        except ROUND_FAULTS as exc:
            log.warning("consumer sweep failed; next round retries", extra={"fields": {"error": type(exc).__name__}})
            continue
        if removed:
            log.info("idle consumer queues removed", extra={"fields": {"removed": removed}})


async def measure_loop(stop: asyncio.Event, broker: ConsumerRabbit) -> None:
    """Measure the relay's lag and the consumer queues' depth now and every MEASURE_SECONDS until STOP."""
    while True:
        try:
            await measure(broker)
        except ROUND_FAULTS as exc:
            log.warning("consumer gauges not measured; next round retries",
                        extra={"fields": {"error": type(exc).__name__}})
        if await sleep_unless_stopped(stop, MEASURE_SECONDS):
            return


async def main(runtime: WorkerRuntime) -> None:
    stop = runtime.async_stop_event()
    rabbit = ConsumerRabbit()  # the sweep's and the gauges' connection; each call takes a channel of its own
    try:
        await asyncio.gather(run_relay(stop, runtime), sweep_loop(stop, rabbit), measure_loop(stop, rabbit))
    finally:
        await rabbit.close()


def run() -> None:
    settings = get_settings()
    # Its /metrics listener (HUB_CONSUMER_RELAY_METRICS_PORT, 0: none) is what a container probe can reach.
    port, host = settings.relay_metrics_address()
    runtime = WorkerRuntime.start("consumer-relay", log_level=settings.log_level, metrics_port=port, metrics_host=host)
    asyncio.run(main(runtime))

"""The consumer service's gauges (N72) against the real database and RabbitMQ: the relay's lag is what a
tenant with queues stored past its cursor; the depth counts what waits in the queues."""

from __future__ import annotations

import asyncio
import uuid

import aio_pika
from prometheus_client import REGISTRY
from sqlalchemy import text

from hub.consumer import topology
from hub.consumer.gauges import measure
from hub.consumer.service import create_queue
from hub.consumer.topology import ConsumerRabbit, queue_name
from hub.db import session_scope

GAUGES = ("streaming_hub_consumer_relay_lag_events", "streaming_hub_consumer_queued_messages",
          "streaming_hub_consumer_queue_deepest_messages")


async def measured(broker: ConsumerRabbit) -> dict[str, float]:
    await measure(broker)
    return {name: REGISTRY.get_sample_value(name) for name in GAUGES}


def store_events(tenant: str, count: int) -> None:
    """COUNT more events in the tenant's log, as far as the relay's cursor can tell (the log's counter)."""
    with session_scope() as session:
        session.execute(text("UPDATE tenant_counters SET last_seq = last_seq + :n WHERE tenant_id = :t"),
                        {"n": count, "t": tenant})
        session.commit()


async def scenario(tenant: str, queue_id: str) -> tuple[dict[str, float], dict[str, float]]:
    broker = ConsumerRabbit()
    try:
        with session_scope() as session:  # a log of 10 events before the queue: its cursor starts at 10
            session.execute(text("INSERT INTO tenant_counters (tenant_id, last_seq) VALUES (:t, 10)"), {"t": tenant})
            session.commit()
        assert await create_queue(broker=broker, tenant_id=tenant, queue_id=queue_id, durable=True, groups=[])
        before = await measured(broker)
        store_events(tenant, 7)
        async with await broker.channel(confirms=True) as channel:
            for n in range(3):
                await channel.default_exchange.publish(aio_pika.Message(str(n).encode()),
                                                       routing_key=queue_name(queue_id))
        await asyncio.sleep(0.2)  # the broker's counts follow its confirms shortly
        return before, await measured(broker)
    finally:
        await topology.delete_queue(broker, queue_id)
        await broker.close()


def test_relay_lag_and_queue_depth() -> None:
    tenant, queue_id = f"t-gauge-{uuid.uuid4().hex[:8]}", f"durable-queue-{uuid.uuid4().hex}"
    try:
        before, after = asyncio.run(scenario(tenant, queue_id))
    finally:
        with session_scope() as session:
            for table in ("consumer_queues", "consumer_relay_cursors", "tenant_counters"):
                session.execute(text(f"DELETE FROM {table} WHERE tenant_id = :t"), {"t": tenant})  # noqa: S608
            session.commit()
    lag, queued, deepest = GAUGES
    assert after[lag] - before[lag] == 7  # stored past the cursor, not relayed (no relay runs here)
    assert after[queued] - before[queued] == 3
    assert after[deepest] >= 3

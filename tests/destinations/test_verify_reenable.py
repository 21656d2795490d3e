"""Verify re-enabling an auto-disabled subscription clears the engine's verdict, not only the row's flags.

R-verifySubscription-03, R-getSubscriptionHealth-11/12, R-getDashboardNeedsAttention-11. The auto-disable
is the delivery engine's own (``workers/deliver/health.py``: its health fold, its auto-disable and its
``hub.destination.disabled`` event on the real backbone), driven with the engine's clock moved on.
"""

from __future__ import annotations

import asyncio
import json
import time
import uuid
from datetime import UTC, datetime, timedelta

import psycopg
from confluent_kafka import Consumer

from hub.lifecycle.event_types import hub_topic
from hub.config import get_settings
from hub.db import libpq_url
from tests.subscriptions.conftest import db_row
from devkit.destinations import STATIC_AWS
from workers.deliver.health import auto_disable, fold, record_health


def _engine_batch(sub_id: str, tenant: str, *, failed_at: datetime, now: datetime) -> list[str]:
    """What a delivery batch does with one failed try: fold it into health, then auto-disable past the window."""

    async def go() -> list[str]:
        async with await psycopg.AsyncConnection.connect(libpq_url()) as conn:
            async with conn.cursor() as cursor:
                await record_health(cursor, fold([(uuid.UUID(sub_id), tenant, False, failed_at)]), now)
                disabled = await auto_disable(cursor, failing=[uuid.UUID(sub_id)], now=now,
                                              window_seconds=get_settings().deliver_auto_disable_seconds)
            await conn.commit()
        return [str(row["id"]) for row in disabled]

    return asyncio.run(go())


def _disabled_events(tenant: str, count: int, timeout: float = 30.0) -> list[dict]:
    consumer = Consumer({"bootstrap.servers": get_settings().kafka_bootstrap, "group.id": f"t-{uuid.uuid4().hex}",
                         "auto.offset.reset": "earliest", "enable.auto.commit": False})
    consumer.subscribe([hub_topic(get_settings())])
    found: list[dict] = []
    deadline = time.monotonic() + timeout
    try:
        while time.monotonic() < deadline and len(found) < count:
            message = consumer.poll(0.5)
            if message is None or message.error():
                continue
            event = json.loads(message.value())
            if event.get("tenantid") == tenant and event["type"] == "hub.destination.disabled":
                found.append(event)
    finally:
        consumer.close()
    return found


def _health(api, sub_id: str) -> dict:
    return api.client.get(f"/v1/subscriptions/{sub_id}/health", headers=api.headers(None, None)).json()


def _attention_reasons(api, sub_id: str) -> list[str]:
    body = api.client.get("/v1/dashboard/subscriptions", headers=api.headers(None, None)).json()
    return next((item["attention_reasons"] for item in body["items"] if item["subscription_id"] == sub_id), [])


def test_verify_clears_the_engines_auto_disable_verdict(api, aws_destinations, override_settings, tenant):
    override_settings(kafka_topic_prefix=f"t-reenable-{uuid.uuid4().hex[:8]}.")
    window = timedelta(seconds=get_settings().deliver_auto_disable_seconds)
    sub_id = api.subscription("sqs", aws_destinations.queue())
    assert api.put_credential(sub_id, {"sinkConfig": STATIC_AWS}).json()["outcome"] == "ok"
    now = datetime.now(UTC)
    assert _engine_batch(sub_id, tenant, failed_at=now - window - timedelta(hours=1), now=now) == [sub_id]
    assert _health(api, sub_id)["status"] == "Down" and _attention_reasons(api, sub_id)[0] == "auto_disabled"

    assert api.verify(sub_id).json()["outcome"] == "ok"
    row = db_row(sub_id)
    assert (row["enabled"], row["auto_disabled"], row["verification_state"]) == (True, False, "active")
    health = _health(api, sub_id)
    assert health["auto_disabled"] is False and health["status"] != "Down", health
    assert "auto_disabled" not in _attention_reasons(api, sub_id)

    # The first failure after the re-enable starts a new streak: it does not disable again at once.
    later = datetime.now(UTC)
    assert _engine_batch(sub_id, tenant, failed_at=later, now=later) == []
    assert db_row(sub_id)["enabled"] is True
    # Sustained again, it is disabled again, and announced with its own event id (ingest keeps both).
    assert _engine_batch(sub_id, tenant, failed_at=later, now=later + window + timedelta(hours=1)) == [sub_id]
    first, second = _disabled_events(tenant, 2)
    assert first["id"] != second["id"]
    assert first["data"]["subscriptionId"] == second["data"]["subscriptionId"] == sub_id

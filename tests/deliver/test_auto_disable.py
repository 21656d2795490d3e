"""Auto-disable after sustained failure, and the ``hub.destination.disabled`` lifecycle event on the backbone.

The window is shortened to one second. The event is read back from the hub's own topic, where the
ingestion workers pick it up like any producer's event (source ``streaming-hub``).
"""

from __future__ import annotations

import json
import time
import uuid
from datetime import UTC, datetime, timedelta

from confluent_kafka import Consumer
from prometheus_client import REGISTRY

from hub.config import get_settings
from hub.lifecycle.event_types import hub_topic
from tests.deliver.conftest import all_terminal, attempts, drive, hook_url, insert_events, insert_subscription, sql
from devkit.receiver import Receiver, Reply
from workers.deliver.health import HealthFold, fold


def lifecycle_events(topic: str, tenant: str, timeout: float = 20.0) -> list[dict]:
    consumer = Consumer({"bootstrap.servers": get_settings().kafka_bootstrap, "group.id": f"t-{uuid.uuid4().hex}",
                         "auto.offset.reset": "earliest", "enable.auto.commit": False})
    consumer.subscribe([topic])
    found: list[dict] = []
    deadline = time.monotonic() + timeout
    try:
        while time.monotonic() < deadline and not found:
            message = consumer.poll(0.5)
            if message is None or message.error():
                continue
            event = json.loads(message.value())
            if event.get("tenantid") == tenant:
                found.append(event)
    finally:
        consumer.close()
    return found


def test_sustained_failure_disables_and_announces(deliver_db: str, scripted: Receiver, tenant: str,
                                                  override_settings) -> None:  # noqa: ANN001
    override_settings(deliver_auto_disable_seconds="1", deliver_retry_ladder_seconds="0.4,0.4,0.4,0.4,0.4,0.4",
                      kafka_topic_prefix=f"t-deliver-{uuid.uuid4().hex[:8]}.")
    scripted.actions.extend([Reply(500)] * 100)  # type: ignore[attr-defined]
    sub, _ = insert_subscription(deliver_db, tenant, hook_url(scripted))
    insert_events(deliver_db, tenant, [sub], 3)
    counted = lambda: REGISTRY.get_sample_value(  # noqa: E731
        "streaming_hub_subscriptions_auto_disabled_total", {"sink_kind": "webhook"}) or 0.0
    before = counted()
    drive(all_terminal(deliver_db, tenant), timeout=30)
    assert counted() == before + 1  # the alert's counter (deploy/observability, N72)
    [(enabled, reason, auto)] = sql(deliver_db, "SELECT enabled, disabled_reason, auto_disabled FROM subscriptions "
                                                "WHERE id = %s", (sub,))
    assert (enabled, reason, auto) == (False, "sustained_failure_5d12h", True)
    [(health_reason, failing_since)] = sql(deliver_db, "SELECT disabled_reason, failing_since FROM subscription_health "
                                                       "WHERE subscription_id = %s", (sub,))
    assert health_reason == "sustained_failure_5d12h" and failing_since is not None
    outcomes = [row["outcome"] for row in attempts(deliver_db, tenant)]
    assert outcomes.count("disabled") + outcomes.count("dead_lettered") + outcomes.count("delivered") == 3
    [event] = lifecycle_events(hub_topic(get_settings()), tenant)
    assert event["type"] == "hub.destination.disabled" and event["source"] == "streaming-hub"
    assert event["data"]["subscriptionId"] == str(sub)
    assert event["data"]["disabledReason"] == "sustained_failure_5d12h"


def test_a_success_clears_failing_since() -> None:
    """Pure fold: failures then a success leave no failing-since mark; failures after it start a new one."""
    sub = uuid.uuid4()
    t0 = datetime.now(UTC)
    folds = fold([(sub, "t", False, t0), (sub, "t", True, t0 + timedelta(seconds=1))])
    assert folds[sub] == HealthFold("t", last_success_at=t0 + timedelta(seconds=1), last_failure_at=t0)
    folds = fold([(sub, "t", True, t0), (sub, "t", False, t0 + timedelta(seconds=2))])
    assert folds[sub].failing_since == t0 + timedelta(seconds=2) and folds[sub].failures == 1

"""Health and the dashboard read attempts that the real delivery engine wrote, not hand-made rows.

A scratch database of its own (the engine claims every due job in it), one real HTTPS receiver on
loopback answering per path, webhook subscriptions that succeed, fail then succeed, are dead-lettered
by a 410, fail until auto-disable trips, and are held (pending verification) until their jobs end
``disabled``. The expectations are what the engine recorded, read back from its own rows.
"""

from __future__ import annotations

import uuid
from collections import Counter
from collections.abc import Iterator
from typing import Any

import pytest

from hub.db import get_engine
from tests.deliver.conftest import (  # noqa: F401 (fixtures used by name)
    TERMINAL, deliver_db, drive, hook_url, insert_events, insert_subscription, job_states, scratch_url, sql,
)
from tests.sinks.conftest import ca, ca_bundle, hook_dns  # noqa: F401 (fixtures used by name)
from devkit.receiver import Received, Receiver, Reply, https_receiver
from tests.sinks.conftest import HOOK_HOST

EVENTS = 2


@pytest.fixture
def hub_db(deliver_db: str, override_settings) -> Iterator[str]:  # noqa: ANN001
    """The API reads the scratch database too; history there is retained from 60 days ago."""
    override_settings(deliver_auto_disable_seconds="1", deliver_retry_ladder_seconds="0.4,0.4,0.4,0.4,0.4,0.4",
                      kafka_topic_prefix=f"t-dash-{uuid.uuid4().hex[:8]}.")
    get_engine.cache_clear()
    sql(deliver_db, "UPDATE retention_coverage SET coverage_start = now() - interval '60 days' WHERE id = 1")
    yield deliver_db
    get_engine().dispose()
    get_engine.cache_clear()


@pytest.fixture
def receiver(ca) -> Iterator[Receiver]:  # noqa: ANN001
    """/ok answers 200; /flaky 500 once, then 200; /gone 410; /down 500 always."""
    seen: Counter[str] = Counter()

    def script(item: Received) -> Reply:
        path = item.path.rsplit("/", 1)[-1]
        seen[path] += 1
        if path == "flaky":
            return Reply(500) if seen[path] == 1 else Reply()
        return {"ok": Reply(), "gone": Reply(410), "down": Reply(500)}.get(path, Reply())

    with https_receiver(ca, (HOOK_HOST,), script) as state:
        yield state


def engine_outcomes(url: str, sub: uuid.UUID) -> dict[str, int]:
    return dict(sql(url, "SELECT outcome, count(*) FROM delivery_attempts WHERE subscription_id = %s GROUP BY 1",
                    (sub,)))


def health(client, token: str, sub: uuid.UUID) -> dict[str, Any]:  # noqa: ANN001
    response = client.get(f"/v1/subscriptions/{sub}/health", headers={"Authorization": f"Bearer {token}"})
    assert response.status_code == 200, response.text
    return response.json()


def dashboard(client, token: str) -> dict[str, Any]:  # noqa: ANN001
    response = client.get("/v1/dashboard", headers={"Authorization": f"Bearer {token}"})
    assert response.status_code == 200, response.text
    return response.json()


def held_and_parked(url: str, subs: list[uuid.UUID]) -> bool:
    """Every job of ``subs`` was claimed and put back (held): still pending, touched after creation."""
    [(count,)] = sql(url, "SELECT count(*) FROM delivery_jobs WHERE subscription_id = ANY(%s) AND state = 'pending'"
                          " AND updated_at > created_at", (subs,))
    return count == EVENTS * len(subs)


def terminal(url: str, tenant: str) -> bool:
    return set(job_states(url, tenant)) <= TERMINAL


@pytest.fixture
def delivered(hub_db: str, receiver: Receiver, tenant: str) -> dict[str, uuid.UUID]:
    """Run the real engine over five webhook subscriptions until every job has ended."""
    base = hook_url(receiver).rsplit("/", 1)[0]
    subs = {name: insert_subscription(hub_db, tenant, f"{base}/{name}")[0] for name in ("ok", "flaky", "gone", "down")}
    insert_events(hub_db, tenant, list(subs.values()), EVENTS)
    drive(lambda: terminal(hub_db, tenant), timeout=30)
    return subs


def test_health_reads_what_the_engine_recorded(client, make_token, hub_db: str, delivered: dict[str, uuid.UUID]):
    """R-getSubscriptionHealth-03, -06, -07, -08, -09, -11, -12, -13: histograms, rate, verdict and status
    of attempts the engine wrote."""
    token = make_token()
    expected = {"ok": ("Healthy", False, 1.0), "flaky": ("Healthy", False, 2 / 3),
                "gone": ("Degraded", False, 0.0), "down": ("Down", True, 0.0)}
    for name, sub in delivered.items():
        body = health(client, token, sub)
        outcomes = engine_outcomes(hub_db, sub)
        assert body["delivery_outcomes"] == outcomes, name
        assert body["recent_outcomes"] == outcomes, name
        status, auto, rate = expected[name]
        assert (body["status"], body["auto_disabled"]) == (status, auto), name
        assert body["success_rate"] == pytest.approx(rate), name
        assert body["dead_lettered"] == outcomes.get("dead_lettered", 0)
    assert engine_outcomes(hub_db, delivered["ok"]) == {"delivered": EVENTS}
    assert engine_outcomes(hub_db, delivered["flaky"]) == {"failed": 1, "delivered": EVENTS}
    assert engine_outcomes(hub_db, delivered["gone"]) == {"dead_lettered": EVENTS}
    down = health(client, token, delivered["down"])
    assert down["disabled_reason"] == "sustained_failure_5d12h" and down["enabled"] is False
    assert down["delivery_outcomes"]["failed"] >= 1 and "last_failure_at" in down and "last_success_at" not in down


def test_held_jobs_show_as_backlog_then_end_disabled(client, make_token, hub_db: str, receiver: Receiver,
                                                     tenant: str):
    """R-getDashboard backlog and R-getSubscriptionHealth-11/-12: jobs the engine holds (subscription not yet
    active) are the push backlog; when they end ``disabled`` (retry horizon passed, or a manual disable) the
    attempts exist without a health row, so the verdict is ``false``, not ``null``."""
    token = make_token()
    base = hook_url(receiver).rsplit("/", 1)[0]
    waiting, switched_off = (insert_subscription(hub_db, tenant, f"{base}/ok", state="pending_verification")[0]
                             for _ in range(2))
    insert_events(hub_db, tenant, [waiting, switched_off], EVENTS)
    drive(lambda: held_and_parked(hub_db, [waiting, switched_off]), timeout=10)
    backlog = dashboard(client, token)["current_state"]["push"]
    assert backlog["pending_jobs"] == 2 * EVENTS and backlog["oldest_pending_job_age_seconds"] >= 0
    assert health(client, token, waiting)["auto_disabled"] is None  # no attempt recorded yet
    sql(hub_db, "UPDATE subscriptions SET enabled = false WHERE id = %s", (switched_off,))
    drive(lambda: terminal(hub_db, tenant), timeout=15)
    assert receiver.received == []
    for sub, status in ((waiting, "Healthy"), (switched_off, "Degraded")):
        body = health(client, token, sub)
        assert body["delivery_outcomes"] == engine_outcomes(hub_db, sub) == {"disabled": EVENTS}
        assert (body["status"], body["auto_disabled"], body["success_rate"]) == (status, False, None)
    after = dashboard(client, token)["current_state"]["push"]
    assert after == {"pending_jobs": 0, "oldest_pending_job_age_seconds": None}


def test_dashboard_counts_what_the_engine_recorded(client, make_token, hub_db: str, tenant: str,
                                                   delivered: dict[str, uuid.UUID]):
    """R-getDashboard period counts, time series and backlog over attempts the engine wrote: attempt counts
    per outcome, jobs created, events received, and buckets summing to the period counts; the
    needs-attention ranking (R-getDashboardNeedsAttention-03/11) and its per-subscription period counts."""
    body = dashboard(client, make_token())
    period = body["selected_period"]
    written = dict(sql(hub_db, "SELECT outcome, count(*) FROM delivery_attempts WHERE tenant_id = %s GROUP BY 1",
                       (tenant,)))
    counts = period["push"]["delivery_attempts"]
    assert {key: value for key, value in counts.items() if value} == written
    assert period["push"]["delivery_jobs_created"] == EVENTS * len(delivered)
    assert period["events_received"] == EVENTS
    buckets = period["time_series"]
    assert sum(b["events_received"] for b in buckets) == period["events_received"]
    assert sum(b["push"]["delivery_jobs_created"] for b in buckets) == period["push"]["delivery_jobs_created"]
    for outcome in counts:
        assert sum(b["push"]["delivery_attempts"][outcome] for b in buckets) == counts[outcome], outcome
    assert body["current_state"]["push"] == {"pending_jobs": 0, "oldest_pending_job_age_seconds": None}
    listed = client.get("/v1/dashboard/subscriptions", headers={"Authorization": f"Bearer {make_token()}"})
    assert listed.status_code == 200, listed.text
    items = {item["subscription_id"]: item for item in listed.json()["items"]}
    assert list(items)[0] == str(delivered["down"]) and items[str(delivered["down"])]["attention_reasons"][0] == \
        "auto_disabled"
    gone = items[str(delivered["gone"])]
    assert gone["attention_reasons"] == ["dead_lettered_in_period"] and gone["period_dead_lettered_attempts"] == EVENTS
    assert str(delivered["ok"]) not in items and str(delivered["flaky"]) not in items  # the success came after
    for sub_id, item in items.items():
        written_for_sub = engine_outcomes(hub_db, uuid.UUID(sub_id))
        assert item["period_delivery_attempts"] == sum(written_for_sub.values())
        assert item["period_failed_attempts"] == written_for_sub.get("failed", 0)

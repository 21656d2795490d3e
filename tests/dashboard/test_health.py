"""GET /v1/subscriptions/{id}/health against real attempts rows (R-getSubscriptionHealth-*)."""

from __future__ import annotations

import random
from datetime import datetime, timedelta

import pytest
from sqlalchemy import text

from hub.db import get_engine

from hub.sinks.vocabulary import Outcome
from tests.dashboard.conftest import pull, table_locked, webhook
from devkit.deliveries import (
    auto_disable, hours_ago, record_attempt, record_poison,
)

REQUIRED = {"subscription_id", "enabled", "verification_state", "status", "snapshot_at", "window_start",
            "delivery_outcomes", "recent_outcomes", "success_rate", "dead_lettered", "poison_events",
            "dropped_tenant", "consumer_lag_ms", "auto_disabled"}
OPTIONAL = {"disabled_reason", "last_success_at", "last_failure_at"}


def at(value: str) -> datetime:
    return datetime.fromisoformat(value)


def health(api, sub_id: str, token: str | None = None):
    return api.client.get(f"/v1/subscriptions/{sub_id}/health", headers=api.headers(None, token))


def test_uniform_404_for_absent_deleted_foreign_and_malformed_ids(api, make_token, coverage):
    """R-getSubscriptionHealth-02, R-X-ORACLE-01: the existence gate gives one indistinguishable 404."""
    mine = pull(api)
    deleted = pull(api)
    assert api.delete(deleted).status_code == 204
    foreign_token = make_token(tenant_id="t-other-tenant")
    answers = [health(api, "0192f1a0-0000-7000-8000-00000000a001"), health(api, deleted),
               health(api, mine, token=foreign_token), health(api, "not-a-uuid")]
    for response in answers:
        assert response.status_code == 404
        body = response.json()
        assert body["code"] == "not_found"
    assert len({(r.json()["detail"], r.json()["title"]) for r in answers}) == 1


def test_fresh_subscription_shape(api, coverage):
    """R-getSubscriptionHealth-04/06/07/08/10/11/12/14: required keys only; empty histograms; null rate."""
    sub_id = pull(api)
    response = health(api, sub_id)
    assert response.status_code == 200
    body = response.json()
    assert set(body) == REQUIRED
    assert body["delivery_outcomes"] == {} and body["recent_outcomes"] == {}
    assert body["success_rate"] is None and body["auto_disabled"] is None
    assert body["consumer_lag_ms"] == 0 and body["dead_lettered"] == 0 and body["poison_events"] == 0
    assert body["status"] == "Healthy" and body["dropped_tenant"] is False
    for name in ("X-RateLimit-Limit", "X-RateLimit-Remaining", "X-RateLimit-Reset"):
        assert response.headers[name].isdigit()
    assert "secret" not in response.text.lower()


def test_histograms_window_recent_subset_and_rate(api, tenant, coverage):
    """R-getSubscriptionHealth-03/06/07/08/09/12: counts in [window_start, snapshot), last 24 h subset."""
    sub_id = webhook(api)
    record_attempt(tenant, sub_id, Outcome.failed, at=hours_ago(24 * 40))  # outside the 30-day window
    record_attempt(tenant, sub_id, Outcome.delivered, at=hours_ago(24 * 40))
    for hours in (72, 50, 30):
        record_attempt(tenant, sub_id, Outcome.delivered, at=hours_ago(hours))
    record_attempt(tenant, sub_id, Outcome.failed, at=hours_ago(48))
    record_attempt(tenant, sub_id, Outcome.delivered, at=hours_ago(2))
    record_attempt(tenant, sub_id, Outcome.failed, at=hours_ago(1))
    record_attempt(tenant, sub_id, Outcome.dead_lettered, at=hours_ago(0.5))
    body = health(api, sub_id).json()
    assert body["delivery_outcomes"] == {"delivered": 4, "failed": 2, "dead_lettered": 1}
    assert body["recent_outcomes"] == {"delivered": 1, "failed": 1, "dead_lettered": 1}
    assert body["success_rate"] == pytest.approx(4 / 7)
    assert body["dead_lettered"] == 1 and body["status"] == "Degraded"
    assert body["auto_disabled"] is False
    snapshot, start = at(body["snapshot_at"]), at(body["window_start"])
    assert snapshot - start == timedelta(days=30)
    assert at(body["last_failure_at"]) > at(body["last_success_at"])
    assert "disabled_reason" not in body


def test_counts_over_rollup_hours_and_raw_edges_equal_a_raw_count(api, tenant, coverage):
    """R-getSubscriptionHealth-03/07: whole hours are read from the hourly rollups and the partial edge
    hours from the attempts; over attempts scattered through 31 days the histograms equal a plain count
    of the attempts in [window_start, snapshot_at) and in its last 24 hours."""
    sub_id = webhook(api)
    chance = random.Random(20261203)
    outcomes = (Outcome.delivered, Outcome.failed, Outcome.dead_lettered)
    for _ in range(80):
        record_attempt(tenant, sub_id, chance.choice(outcomes), at=hours_ago(chance.uniform(0.01, 24 * 31)))
    body = health(api, sub_id).json()
    snapshot, start = at(body["snapshot_at"]), at(body["window_start"])
    with get_engine().connect() as connection:
        def raw(since: datetime) -> dict[str, int]:
            return dict(connection.execute(text(
                "SELECT outcome, count(*) FROM delivery_attempts WHERE subscription_id = :sub"
                " AND attempted_at >= :start AND attempted_at < :end GROUP BY outcome"),
                {"sub": sub_id, "start": since, "end": snapshot}).all())
        window, recent = raw(start), raw(max(start, snapshot - timedelta(hours=24)))
    assert 40 < sum(window.values()) < 80, "some attempts fall before the window"
    assert body["delivery_outcomes"] == window and body["recent_outcomes"] == recent


def test_failures_only_give_rate_zero_not_null(api, tenant, coverage):
    """R-getSubscriptionHealth-08: a genuine 0.0 is distinct from null."""
    sub_id = webhook(api)
    record_attempt(tenant, sub_id, Outcome.failed, at=hours_ago(3))
    body = health(api, sub_id).json()
    assert body["success_rate"] == 0.0 and body["status"] == "Healthy"


def test_window_starts_at_coverage_when_later(api, tenant, coverage):
    """R-getSubscriptionHealth-05: window_start is the retained-history start when that is later."""
    sub_id = webhook(api)
    record_attempt(tenant, sub_id, Outcome.delivered, at=hours_ago(10))
    record_attempt(tenant, sub_id, Outcome.delivered, at=hours_ago(1))
    coverage(hours_ago(5))
    body = health(api, sub_id).json()
    assert abs((at(body["window_start"]) - hours_ago(5)).total_seconds()) < 60
    assert body["delivery_outcomes"] == {"delivered": 1}
    assert "last_success_at" in body  # reported whenever it happened


def test_poison_events_drive_dropped_tenant(api, tenant, coverage):
    """R-getSubscriptionHealth-09/12: quarantined events keyed on the captured tenant id: Degraded."""
    sub_id = webhook(api)
    record_attempt(tenant, sub_id, Outcome.delivered, at=hours_ago(1))
    record_poison(tenant, at=hours_ago(2))
    record_poison(tenant, at=hours_ago(3))
    record_poison("t-someone-else", at=hours_ago(2))
    body = health(api, sub_id).json()
    assert body["poison_events"] == 2 and body["dropped_tenant"] is True
    assert body["status"] == "Degraded" and "poison" not in body["delivery_outcomes"]


def test_auto_disabled_is_down_with_reason(api, tenant, coverage):
    """R-getSubscriptionHealth-11/12/13: the verdict drives Down; reported even when outside the window."""
    sub_id = webhook(api)
    record_attempt(tenant, sub_id, Outcome.failed, at=hours_ago(24 * 45))
    auto_disable(sub_id, at=hours_ago(24 * 40))
    body = health(api, sub_id).json()
    assert body["status"] == "Down" and body["auto_disabled"] is True and body["enabled"] is False
    assert body["disabled_reason"] == "sustained_failure_5d12h"
    assert body["delivery_outcomes"] == {} and "last_failure_at" in body


def test_manual_disable_is_degraded(api, tenant, coverage):
    """R-getSubscriptionHealth-12: disabled without an auto-disable verdict is Degraded, not Down."""
    sub_id = webhook(api, enabled=False)
    body = health(api, sub_id).json()
    assert body["status"] == "Degraded" and body["auto_disabled"] is None and body["enabled"] is False


def test_read_timeout_is_503_without_retry_after(api, override_settings, coverage):
    """R-getSubscriptionHealth-14, R-X-RATE-06: out of its time budget: 503 read_timeout, no Retry-After."""
    sub_id = pull(api)
    override_settings(read_timeout_ms=300)
    with table_locked("delivery_attempts"):
        response = health(api, sub_id)
    assert response.status_code == 503
    assert response.json()["code"] == "read_timeout"
    assert "retry-after" not in response.headers

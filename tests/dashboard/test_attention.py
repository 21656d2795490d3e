"""GET /v1/dashboard/subscriptions: ranking, order, pages and the signed cursor (R-getDashboardNeedsAttention-*)."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from hub.sinks.vocabulary import Outcome
from tests.dashboard.conftest import pull, webhook
from devkit.deliveries import auto_disable, hours_ago, now, record_attempt

ITEM_KEYS = {"subscription_id", "sink_kind", "enabled", "verification_state", "auto_disabled", "disabled_reason",
             "last_success_at", "last_failure_at", "period_delivery_attempts", "period_failed_attempts",
             "period_dead_lettered_attempts", "attention_reasons"}


def attention(api, token: str | None = None, **params):
    return api.client.get("/v1/dashboard/subscriptions", params=params, headers=api.headers(None, token))


def iso(moment: datetime) -> str:
    return moment.astimezone(UTC).isoformat().replace("+00:00", "Z")


def seed(api, tenant: str) -> dict[str, str]:
    """One subscription per reason, plus healthy ones that must not be listed."""
    subs = {
        "auto": webhook(api), "unverified": webhook(api, verification_state="pending_verification"),
        "manual": webhook(api, enabled=False), "dead": webhook(api), "failing_a": webhook(api),
        "failing_b": webhook(api), "recovered": webhook(api), "healthy": webhook(api), "pull": pull(api),
    }
    record_attempt(tenant, subs["auto"], Outcome.failed, at=hours_ago(3))
    auto_disable(subs["auto"], at=hours_ago(2))
    record_attempt(tenant, subs["dead"], Outcome.dead_lettered, at=hours_ago(5))
    record_attempt(tenant, subs["dead"], Outcome.delivered, at=hours_ago(4))
    record_attempt(tenant, subs["failing_a"], Outcome.failed, at=hours_ago(6))
    record_attempt(tenant, subs["failing_b"], Outcome.delivered, at=hours_ago(8))
    record_attempt(tenant, subs["failing_b"], Outcome.failed, at=hours_ago(1))
    record_attempt(tenant, subs["recovered"], Outcome.failed, at=hours_ago(3))
    record_attempt(tenant, subs["recovered"], Outcome.delivered, at=hours_ago(2))
    record_attempt(tenant, subs["healthy"], Outcome.delivered, at=hours_ago(2))
    return subs


def test_ranking_order_and_item_shape(api, tenant, coverage):
    """R-getDashboardNeedsAttention-03/04/11/12/13/15: rank, then latest failure, then id; no secrets."""
    subs = seed(api, tenant)
    response = attention(api)
    assert response.status_code == 200, response.text
    assert response.headers["cache-control"] == "private, no-store"
    assert response.headers["X-RateLimit-Limit"].isdigit()
    body = response.json()
    assert set(body) == {"snapshot_at", "window_start", "window_end", "items", "next_cursor"}
    order = [item["subscription_id"] for item in body["items"]]
    assert order == [subs["auto"], subs["unverified"], subs["manual"], subs["dead"], subs["failing_b"],
                     subs["failing_a"]]
    assert body["next_cursor"] == ""
    for item in body["items"]:
        assert set(item) == ITEM_KEYS
        assert "endpoint" not in item and "93.184" not in response.text
    auto = body["items"][0]
    assert auto["attention_reasons"] == ["auto_disabled", "failed_in_period_without_success_after_failure"]
    assert auto["auto_disabled"] is True and auto["disabled_reason"] == "sustained_failure_5d12h"
    unverified = body["items"][1]
    assert unverified["attention_reasons"] == ["verification_not_active"]
    assert unverified["last_success_at"] is None and unverified["last_failure_at"] is None
    assert unverified["disabled_reason"] == "" and unverified["period_delivery_attempts"] == 0
    dead = body["items"][3]
    assert dead["attention_reasons"] == ["dead_lettered_in_period"]
    assert (dead["period_delivery_attempts"], dead["period_failed_attempts"],
            dead["period_dead_lettered_attempts"]) == (2, 0, 1)


def test_pages_follow_the_signed_cursor(api, tenant, coverage):
    """R-getDashboardNeedsAttention-05/08/09/10: keyset pages; empty next_cursor on the last page."""
    subs = seed(api, tenant)
    first = attention(api, limit="4").json()
    assert len(first["items"]) == 4 and first["next_cursor"]
    period = {"from": first["window_start"], "to": first["window_end"]}
    second = attention(api, limit="4", cursor=first["next_cursor"], **period).json()
    assert second["window_start"] == first["window_start"] and second["window_end"] == first["window_end"]
    assert [i["subscription_id"] for i in first["items"] + second["items"]] == \
        [i["subscription_id"] for i in attention(api, **period).json()["items"]]
    assert second["next_cursor"] == "" and len(second["items"]) == 2
    assert subs["healthy"] not in [i["subscription_id"] for i in first["items"] + second["items"]]


def test_cursor_refusals(api, tenant, make_token, coverage):
    """R-getDashboardNeedsAttention-06/07/08: tampered, foreign, re-perioded or period-less cursor: 422."""
    seed(api, tenant)
    first = attention(api, limit="2").json()
    cursor = first["next_cursor"]
    period = {"from": first["window_start"], "to": first["window_end"]}
    payload, _, signature = cursor.partition(".")
    tampered = payload[:-2] + ("AA" if payload[-2:] != "AA" else "BB") + "." + signature
    other_caller = make_token(subject="someone-else")
    moved = {"from": iso(datetime.fromisoformat(first["window_start"]) - timedelta(minutes=1)), "to": period["to"]}
    cases = [attention(api, cursor=tampered, **period), attention(api, cursor="garbage", **period),
             attention(api, token=other_caller, cursor=cursor, **period), attention(api, cursor=cursor, **moved),
             attention(api, cursor=cursor), attention(api, cursor=cursor, window_hours="24"),
             attention(api, cursor=cursor, **{"from": period["from"]})]
    for response in cases:
        assert response.status_code == 422, response.text
        assert response.json()["code"] == "validation_error"
    assert attention(api, cursor=cursor, **period).status_code == 200


def test_limit_and_period_rules(api, coverage):
    """R-getDashboardNeedsAttention-05/07/14, D6: limit 1-50 refused not clamped; same period rules as the snapshot."""
    for limit in ("0", "51", "x", "-1"):
        assert attention(api, limit=limit).status_code == 422
    assert attention(api, limit="50").status_code == 200
    assert attention(api, to=iso(now() + timedelta(minutes=5))).status_code == 422
    assert attention(api, window_hours="721").status_code == 422
    assert attention(api, window_hours="3", to=iso(now())).status_code == 422
    assert attention(api, **{"from": iso(now() - timedelta(days=31)), "to": iso(now())}).status_code == 422
    body = attention(api, window_hours="3").json()
    assert datetime.fromisoformat(body["window_end"]) - datetime.fromisoformat(body["window_start"]) == \
        timedelta(hours=3)
    coverage(hours_ago(2))
    refused = attention(api)
    assert refused.status_code == 422 and set(refused.json()["details"]) == {"coverage_start", "snapshot_at"}


def test_empty_page_and_permission(api, make_token, coverage):
    """R-getDashboardNeedsAttention-02/09: an empty page is items []; dashboard:get is required."""
    webhook(api)
    body = attention(api).json()
    assert body["items"] == [] and body["next_cursor"] == ""
    assert attention(api, token=make_token(permissions=["subscriptions:get"])).status_code == 403


def test_dashboard_period_reads_the_same_attention_period(api, tenant, coverage):
    """R-getDashboard-25: a snapshot's window_start/window_end sent as from/to read the same period."""
    seed(api, tenant)
    snapshot = api.client.get("/v1/dashboard", params={"window_hours": "6"}, headers=api.headers(None)).json()
    page = attention(api, **{"from": snapshot["window_start"], "to": snapshot["window_end"]})
    assert page.status_code == 200, page.text
    body = page.json()
    assert (body["window_start"], body["window_end"]) == (snapshot["window_start"], snapshot["window_end"])
    dead = sum(item["period_dead_lettered_attempts"] for item in body["items"])
    assert dead == snapshot["selected_period"]["push"]["delivery_attempts"]["dead_lettered"] == 1


def test_delegated_caller_lists_its_party_only(api, make_token, coverage):
    """R-getDashboardNeedsAttention-03 with D16: a delegated credential sees its own subscriptions only."""
    webhook(api, verification_state="pending_verification")
    party_token = make_token(delegated_scope="cGFydHk=")
    created = api.create({"name": "party-hook", "sink_kind": "webhook",
                          "endpoint": "https://93.184.215.14/hooks/party"}, token=party_token)
    assert created.status_code == 201, created.text
    party_items = attention(api, token=party_token).json()["items"]
    assert [item["subscription_id"] for item in party_items] == [created.json()["subscription"]["id"]]
    assert len(attention(api).json()["items"]) == 2

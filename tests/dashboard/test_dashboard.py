"""GET /v1/dashboard over real event, job and attempt rows (R-getDashboard-*)."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from sqlalchemy import text

from hub.db import get_engine
from hub.sinks.vocabulary import Outcome
from tests.dashboard.conftest import pull, table_locked, webhook
from devkit.deliveries import add_event, add_job, hours_ago, now, record_attempt, record_poison

TOP = {"snapshot_at", "coverage_start", "window_start", "window_end", "current_state", "selected_period"}
PERIOD = {"events_received", "push", "pull", "pull_omitted_reason", "pull_window_ceiling_hours", "time_series"}
OUTCOMES = {"delivered", "failed", "dead_lettered", "disabled", "available", "poison"}


def at(value: str) -> datetime:
    return datetime.fromisoformat(value)


def dashboard(api, token: str | None = None, **params):
    return api.client.get("/v1/dashboard", params=params, headers=api.headers(None, token))


def iso(moment: datetime) -> str:
    return moment.astimezone(UTC).isoformat().replace("+00:00", "Z")


def test_empty_tenant_shape_headers_and_zeros(api, coverage):
    """R-getDashboard-10/11/12/13/17/18/22/24: required keys only, zeros never null, no-store, metered."""
    response = dashboard(api)
    assert response.status_code == 200, response.text
    assert response.headers["cache-control"] == "private, no-store"
    for name in ("X-RateLimit-Limit", "X-RateLimit-Remaining", "X-RateLimit-Reset"):
        assert response.headers[name].isdigit()
    body = response.json()
    assert set(body) == TOP and set(body["selected_period"]) == PERIOD
    assert body["window_end"] == body["snapshot_at"]
    assert at(body["window_end"]) - at(body["window_start"]) == timedelta(hours=24)
    push = body["current_state"]["push"]
    assert push == {"pending_jobs": 0, "oldest_pending_job_age_seconds": None}
    period = body["selected_period"]
    assert period["events_received"] == 0 and set(period["push"]["delivery_attempts"]) == OUTCOMES
    assert period["pull"] == {"eligible_events": 0, "eligible_subscription_matches": 0}
    assert period["pull_omitted_reason"] is None
    series = period["time_series"]
    assert len(series) in (24, 25) and all(bucket["events_received"] == 0 for bucket in series)


def test_census_splits_sum_to_total(api, coverage):
    """R-getDashboard-14/15/16, D7: four splits each sum to total; reserved disabled state is 0."""
    webhook(api)
    webhook(api, verification_state="pending_verification")
    webhook(api, verification_state="degraded", enabled=False)
    pull(api)
    gone = pull(api)
    api.delete(gone)
    census = dashboard(api).json()["current_state"]["subscriptions"]
    assert census["total"] == 4
    for split in ("by_enabled", "by_verification_state", "by_sink_kind", "by_channel"):
        assert sum(census[split].values()) == 4, split
    assert census["by_enabled"] == {"enabled": 3, "disabled": 1}
    assert census["by_verification_state"] == {"pending_verification": 1, "active": 2, "degraded": 1, "disabled": 0}
    assert census["by_sink_kind"] == {"webhook": 3, "sqs": 0, "rabbitmq": 0, "eventbridge": 0, "pull": 1}
    assert census["by_channel"] == {"push": 3, "pull": 1}


def test_backlog_counts_pending_and_retrying_with_oldest_age(api, tenant, coverage):
    """R-getDashboard-17: pending or retrying jobs, and the oldest one's age in whole seconds."""
    sub_id = webhook(api)
    seq = add_event(tenant, received_at=hours_ago(3))
    add_job(tenant, sub_id, event_seq=seq, created_at=hours_ago(3), state="retrying")
    add_job(tenant, sub_id, event_seq=add_event(tenant, received_at=hours_ago(1)), created_at=hours_ago(1))
    add_job(tenant, sub_id, event_seq=add_event(tenant, received_at=hours_ago(5)), created_at=hours_ago(5),
            state="delivered")
    body = dashboard(api).json()
    push = body["current_state"]["push"]
    assert push["pending_jobs"] == 2
    assert abs(push["oldest_pending_job_age_seconds"] - 3 * 3600) < 120
    assert isinstance(push["oldest_pending_job_age_seconds"], int)


def test_period_counts_equal_bucket_sums(api, tenant, coverage):
    """R-getDashboard-21/22/23/24: per-attempt counts; buckets tile the period and add up to it."""
    sub_id = webhook(api)
    for hours in (30, 20, 5, 5, 0.5):
        seq = add_event(tenant, received_at=hours_ago(hours))
        job = add_job(tenant, sub_id, event_seq=seq, created_at=hours_ago(hours))
        record_attempt(tenant, sub_id, Outcome.failed, at=hours_ago(hours) + timedelta(seconds=5), job_id=job)
        record_attempt(tenant, sub_id, Outcome.delivered, at=hours_ago(hours) + timedelta(seconds=9), job_id=job,
                       attempt_no=2)
    record_attempt(tenant, sub_id, Outcome.disabled, at=hours_ago(4))
    record_poison(tenant, at=hours_ago(2))
    body = dashboard(api, window_hours="24").json()
    period = body["selected_period"]
    assert period["events_received"] == 4
    assert period["push"]["delivery_jobs_created"] == 4
    assert period["push"]["delivery_attempts"] == {"delivered": 4, "failed": 4, "dead_lettered": 0, "disabled": 1,
                                                   "available": 0, "poison": 1}
    series = period["time_series"]
    assert series[0]["bucket_start"] == body["window_start"] and series[-1]["bucket_end"] == body["window_end"]
    for earlier, later in zip(series, series[1:], strict=False):
        assert earlier["bucket_end"] == later["bucket_start"]
    for bucket in series[1:-1]:
        assert at(bucket["bucket_end"]) - at(bucket["bucket_start"]) == timedelta(hours=1)
    assert sum(b["events_received"] for b in series) == 4
    assert sum(b["push"]["delivery_jobs_created"] for b in series) == 4
    for outcome in OUTCOMES:
        assert sum(b["push"]["delivery_attempts"][outcome] for b in series) == \
            period["push"]["delivery_attempts"][outcome]


def test_daily_buckets_above_48_hours(api, tenant, coverage):
    """R-getDashboard-22/24: daily UTC buckets above 48 h, clipped at both ends."""
    add_event(tenant, received_at=hours_ago(60))
    add_event(tenant, received_at=hours_ago(1))
    body = dashboard(api, window_hours="72").json()
    series = body["selected_period"]["time_series"]
    assert series[0]["bucket_start"] == body["window_start"] and series[-1]["bucket_end"] == body["window_end"]
    for bucket in series[1:]:
        assert at(bucket["bucket_start"]).hour == 0 and at(bucket["bucket_start"]).minute == 0
    assert len(series) in (3, 4)
    assert sum(b["events_received"] for b in series) == body["selected_period"]["events_received"] == 2


def test_pull_eligibility_and_ceiling(api, tenant, override_settings, coverage):
    """R-getDashboard-19/20/23: eligibility from live pull subscriptions; omitted above the ceiling."""
    pull(api)
    pull(api)
    disabled = pull(api)
    with get_engine().begin() as connection:
        connection.execute(text("UPDATE subscriptions SET enabled = false WHERE id = :id"), {"id": disabled})
    add_event(tenant, received_at=hours_ago(2))
    add_event(tenant, received_at=hours_ago(3))
    period = dashboard(api).json()["selected_period"]
    assert period["pull"] == {"eligible_events": 2, "eligible_subscription_matches": 4}
    buckets = [b["pull"] for b in period["time_series"]]
    assert sum(b["eligible_subscription_matches"] for b in buckets) == 4
    assert sum(b["eligible_events"] for b in buckets) >= 2
    override_settings(dashboard_pull_ceiling_hours=24)
    exact = dashboard(api, window_hours="24").json()["selected_period"]
    assert exact["pull"] is not None and exact["pull_omitted_reason"] is None
    wider = dashboard(api, window_hours="25").json()["selected_period"]
    assert wider["pull"] is None and wider["pull_omitted_reason"] == "window_exceeds_pull_ceiling"
    assert wider["pull_window_ceiling_hours"] == 24
    assert all(bucket["pull"] is None for bucket in wider["time_series"])


def test_from_to_period_and_defaults(api, tenant, coverage):
    """R-getDashboard-04/05/12: [from, to) inclusive-exclusive; from defaults to to minus 24 h."""
    end = now().replace(minute=0, second=0, microsecond=0) - timedelta(hours=2)
    add_event(tenant, received_at=end - timedelta(hours=1))
    add_event(tenant, received_at=end)  # excluded: to is exclusive
    add_event(tenant, received_at=end - timedelta(hours=24))  # included: from is inclusive
    body = dashboard(api, to=iso(end)).json()
    assert at(body["window_end"]) == end and at(body["window_start"]) == end - timedelta(hours=24)
    assert body["selected_period"]["events_received"] == 2
    assert len(body["selected_period"]["time_series"]) == 24
    empty = dashboard(api, **{"from": iso(end), "to": iso(end)}).json()
    assert empty["selected_period"]["time_series"] == [] and empty["selected_period"]["events_received"] == 0


def test_window_rules_are_422(api, coverage):
    """R-getDashboard-06/07/08/09, D1: each refused as validation_error; coverage refusal has details."""
    later = iso(now() + timedelta(hours=1))
    cases = [{"to": later}, {"from": iso(now() - timedelta(days=31)), "to": iso(now() - timedelta(minutes=1))},
             {"window_hours": "0"}, {"window_hours": "721"}, {"window_hours": "1.5"}, {"window_hours": "x"},
             {"window_hours": "2", "from": iso(now() - timedelta(hours=3))}, {"window_hours": "2", "to": iso(now())},
             {"from": "yesterday"}, {"to": "2026-01-01T00:00:00"}]
    for params in cases:
        response = dashboard(api, **params)
        assert response.status_code == 422, params
        assert response.json()["code"] == "validation_error"
    assert dashboard(api, window_hours="720").status_code == 200
    coverage(hours_ago(10))
    refused = dashboard(api)
    assert refused.status_code == 422
    details = refused.json()["details"]
    assert set(details) == {"coverage_start", "snapshot_at"}
    assert abs((at(details["coverage_start"]) - hours_ago(10)).total_seconds()) < 60
    assert dashboard(api, window_hours="9").status_code == 200


def test_authorization_and_own_allowance(api, make_token, override_settings, coverage):
    """R-getDashboard-02/10, R-X-RATE-01/03: dashboard:get; group C runs out without touching group A."""
    no_permission = make_token(permissions=["subscriptions:get"])
    assert dashboard(api, token=no_permission).status_code == 403
    override_settings(rate_limit_dashboard=2)
    statuses = [dashboard(api).status_code for _ in range(3)]
    assert statuses == [200, 200, 429]
    refused = api.client.get("/v1/dashboard/subscriptions", headers=api.headers(None))
    assert refused.status_code == 429 and int(refused.headers["Retry-After"]) >= 1
    assert api.list().status_code == 200


def test_read_only_never_moves_a_pull_cursor(api, tenant, coverage):
    """R-getDashboard-03: reading the dashboard writes no pull cursor and returns no secret."""
    sub_id = pull(api)
    add_event(tenant, received_at=hours_ago(1))
    response = dashboard(api)
    with get_engine().connect() as connection:
        cursors = connection.execute(text("SELECT count(*) FROM pull_cursors WHERE subscription_id = :id"),
                                     {"id": sub_id}).scalar_one()
    assert cursors == 0 and "secret" not in response.text.lower()


def test_delegated_caller_sees_its_party_only(api, make_token, tenant, coverage):
    """R-getDashboard-14 with D16: a delegated credential's census covers its own subscriptions."""
    pull(api)
    party = api.client.post("/v1/subscriptions", json={"name": "party-pull", "sink_kind": "pull"},
                            headers=api.headers("new", make_token(delegated_scope="cGFydHk=")))
    assert party.status_code == 201, party.text
    add_event(tenant, received_at=hours_ago(1))
    add_event(tenant, received_at=hours_ago(1), delegated_scope="cGFydHk=")
    delegated = dashboard(api, token=make_token(delegated_scope="cGFydHk=")).json()
    assert delegated["current_state"]["subscriptions"]["total"] == 1
    assert delegated["selected_period"]["events_received"] == 1
    assert dashboard(api).json()["current_state"]["subscriptions"]["total"] == 2


def test_pull_counts_join_rollup_hours_and_partial_ends(api, tenant, coverage):
    """R-getDashboard-20/23: whole hours from ingest's rollup, partial ends from the log; a deleted
    pull subscription leaves a closed period's counts."""
    kept, dropped = pull(api), pull(api)
    start = now().replace(minute=0, second=0, microsecond=0) - timedelta(hours=5) + timedelta(minutes=30)
    end = start + timedelta(hours=3)
    for moment in (start - timedelta(minutes=1), start + timedelta(minutes=10), start + timedelta(hours=1),
                   end - timedelta(minutes=5), end):
        add_event(tenant, received_at=moment)
    params = {"from": iso(start), "to": iso(end)}
    period = dashboard(api, **params).json()["selected_period"]
    assert period["pull"] == {"eligible_events": 3, "eligible_subscription_matches": 6}
    assert [b["pull"]["eligible_events"] for b in period["time_series"]] == [1, 1, 0, 1]
    api.delete(dropped)
    after = dashboard(api, **params).json()["selected_period"]["pull"]
    assert after == {"eligible_events": 3, "eligible_subscription_matches": 3}
    assert kept


def test_read_timeout_on_both_dashboard_routes(api, override_settings, coverage):
    """R-getDashboard-01, R-getDashboardNeedsAttention-01, R-X-RATE-06: 503 read_timeout, no Retry-After."""
    override_settings(read_timeout_ms=300)
    with table_locked("delivery_attempts"):
        answers = [dashboard(api), api.client.get("/v1/dashboard/subscriptions", headers=api.headers(None))]
    for response in answers:
        assert response.status_code == 503, response.text
        assert response.json()["code"] == "read_timeout" and "retry-after" not in response.headers


def test_instants_at_the_ends_of_the_calendar_are_422_not_500(api, coverage):
    """R-getDashboard-06/09, R-getDashboardNeedsAttention-01, N1: a `to` within a day of year 1 (the
    default 24 hours before it do not exist) or an offset instant outside years 1-9999 in UTC is a
    validation_error on both dashboard routes, never an internal error (found by `make fuzz`)."""
    cases = [{"to": "0001-01-01T00:00:00Z"}, {"to": "0001-01-01T12:00:00+00:00"},
             {"from": "0001-01-01T00:30:00+01:00"}, {"to": "9999-12-31T23:30:00-01:00"},
             {"from": "0001-01-01T00:00:00Z", "to": "0001-01-01T01:00:00Z"}]
    for route in ("/v1/dashboard", "/v1/dashboard/subscriptions"):
        for params in cases:
            response = api.client.get(route, params=params, headers=api.headers(None, None))
            assert response.status_code == 422, (route, params, response.text)
            assert response.json()["code"] == "validation_error"

"""GET /v1/subscriptions (R-listSubscriptions-*, R-X-READ-*) on the real database."""

from __future__ import annotations

import pytest

from tests.subscriptions.conftest import LOOPBACK_WEBHOOK, problem

READ_REQUIRED = {"id", "name", "sink_kind", "endpoint_display", "signature_version", "plan_tier", "enabled",
                 "verification_state", "credential_kind", "secret_configured", "secret_rotated_at",
                 "secret_overlap_until", "created_at", "updated_at"}
READ_OPTIONAL = {"event_types", "origin", "timeout_ms", "schema_major", "event_majors", "delegated_scope"}


def _ids(response) -> list[str]:
    assert response.status_code == 200, response.text
    return [row["id"] for row in response.json()["subscriptions"]]


def test_lists_only_the_tenants_live_subscriptions_newest_first(api, make_token):
    """R-listSubscriptions-02, R-deleteSubscription-06: own tenant, live only, DESC by id."""
    made = [api.created()["subscription"]["id"] for _ in range(3)]
    other = make_token(tenant_id="another-tenant-for-list")
    api.create({"name": "theirs", "sink_kind": "pull"}, token=other)
    assert api.delete(made[1]).status_code == 204
    assert _ids(api.list()) == [made[2], made[0]]
    assert made[2] not in _ids(api.list(token=other))


def test_rows_are_read_projections(api, allow_loopback):
    """R-listSubscriptions-03, R-X-READ-01: endpoint_display, never endpoint or the secret."""
    created = api.created(sink_kind="webhook", endpoint=LOOPBACK_WEBHOOK)
    row = api.list().json()["subscriptions"][0]
    assert READ_REQUIRED <= set(row) <= READ_REQUIRED | READ_OPTIONAL
    assert "endpoint" not in row and created["signingSecret"] not in str(row)
    assert row["endpoint_display"] == "https://127.0.0.1:8443"


def test_sink_kind_filter(api):
    """R-listSubscriptions-04: one kind; any other value → 422 validation_error."""
    pull = api.created()["subscription"]["id"]
    queue = api.created(sink_kind="rabbitmq", endpoint="orders/")["subscription"]["id"]
    assert _ids(api.list(sink_kind="rabbitmq")) == [queue]
    assert _ids(api.list(sink_kind="pull")) == [pull]
    problem(api.list(sink_kind="ftp"), 422, "validation_error")


@pytest.mark.parametrize("limit, expected", [("2", 2), ("0", 5), ("-4", 5), ("500", 5)])
def test_limit_is_clamped_and_defaults(api, limit, expected):
    """R-listSubscriptions-05, N4: non-positive → default (50), above 200 clamped (not rejected)."""
    for _ in range(5):
        api.created()
    assert len(_ids(api.list(limit=limit))) == expected


def test_limit_that_is_not_a_number_is_refused(api):
    """R-listSubscriptions-05, N1: the hub validates limit; a non-integer → 422 validation_error."""
    problem(api.list(limit="lots"), 422, "validation_error")


def test_default_and_maximum_limit(api, tenant):
    """R-listSubscriptions-05, N4: the default page is 50 and the maximum 200."""
    from sqlalchemy import text

    from hub.db import get_engine
    from hub.ids import new_id

    with get_engine().begin() as connection:
        for index in range(205):
            connection.execute(text(
                "INSERT INTO subscriptions (id, tenant_id, name, sink_kind, endpoint, signature_version, plan_tier, "
                "enabled, verification_state, credential_kind, auto_disabled, disabled_reason, created_at, "
                "updated_at) VALUES (:id, :t, :n, 'pull', 'pull://x', 'v1', 'standard', true, 'active', 'none', "
                "false, '', now(), now())"), {"id": new_id(), "t": tenant, "n": f"bulk-{index}"})
    assert len(_ids(api.list())) == 50
    assert len(_ids(api.list(limit="1000"))) == 200


def test_after_pages_by_keyset(api):
    """R-listSubscriptions-06, R-listSubscriptions-11: after = last id; next page holds smaller ids;
    next_cursor only on a full page, "" on the last."""
    made = [api.created()["subscription"]["id"] for _ in range(5)]
    first = api.list(limit="2").json()
    assert [row["id"] for row in first["subscriptions"]] == [made[4], made[3]]
    assert first["next_cursor"] == made[3]
    second = api.list(limit="2", after=first["next_cursor"]).json()
    assert [row["id"] for row in second["subscriptions"]] == [made[2], made[1]]
    third = api.list(limit="2", after=second["next_cursor"]).json()
    assert [row["id"] for row in third["subscriptions"]] == [made[0]] and third["next_cursor"] == ""


def test_after_must_be_a_uuid(api):
    """R-listSubscriptions-06: a non-UUID after → 422 validation_error."""
    assert problem(api.list(after="not-a-uuid"), 422, "validation_error")["errors"][0]["location"] == "after"


def test_name_filter_is_exact_trimmed_and_scoped(api, make_token):
    """R-listSubscriptions-07, R-X-ORACLE-04: exact, trimmed, in the create's conflict scope; blank → 422."""
    target = api.created(name="exact-name")["subscription"]["id"]
    api.created(name="exact-name-2")
    assert _ids(api.list(name="  exact-name ")) == [target]
    party = make_token(delegated_scope="UGFydHktQg==")
    assert api.create({"name": "exact-name", "sink_kind": "pull"}, token=party).status_code == 201
    assert _ids(api.list(name="exact-name")) == [target]
    problem(api.list(name="   "), 422, "validation_error")


def test_enabled_filter(api, tenant):
    """R-listSubscriptions-08: true / false filter; any other value → 422 validation_error."""
    from sqlalchemy import text

    from hub.db import get_engine

    on = api.created()["subscription"]["id"]
    off = api.created()["subscription"]["id"]
    with get_engine().begin() as connection:
        connection.execute(text("UPDATE subscriptions SET enabled = false WHERE id = :id"), {"id": off})
    assert _ids(api.list(enabled="false")) == [off]
    assert _ids(api.list(enabled="true")) == [on]
    problem(api.list(enabled="maybe"), 422, "validation_error")


def test_verification_state_filter(api, allow_loopback):
    """R-listSubscriptions-09, N5: a VerificationState value filters; another value → 422 validation_error."""
    active = api.created()["subscription"]["id"]
    pending = api.created(sink_kind="webhook", endpoint=LOOPBACK_WEBHOOK)["subscription"]["id"]
    assert _ids(api.list(verification_state="active")) == [active]
    assert _ids(api.list(verification_state="pending_verification")) == [pending]
    assert _ids(api.list(verification_state="degraded")) == []
    problem(api.list(verification_state="disabled"), 422, "validation_error")


def test_response_shape(api):
    """R-listSubscriptions-10: exactly subscriptions (array) and next_cursor (string)."""
    body = api.list().json()
    assert set(body) == {"subscriptions", "next_cursor"} and body == {"subscriptions": [], "next_cursor": ""}


def test_list_is_metered(api):
    """R-listSubscriptions-12, R-X-RATE-04: 200 carries integer X-RateLimit-Limit/-Remaining/-Reset."""
    response = api.list()
    for name in ("x-ratelimit-limit", "x-ratelimit-remaining", "x-ratelimit-reset"):
        assert int(response.headers[name]) >= 0

"""GET /v1/subscriptions/{id} and …/endpoint (R-getSubscription-*, R-revealSubscriptionEndpoint-*,
R-X-READ-*, R-X-ORACLE-01) on the real database."""

from __future__ import annotations

import uuid

import pytest
from sqlalchemy import text

from hub.db import get_engine
from hub.ids import new_id
from tests.subscriptions.conftest import LOOPBACK_WEBHOOK, PUBLIC_WEBHOOK, problem

READ_REQUIRED = {"id", "name", "sink_kind", "endpoint_display", "signature_version", "plan_tier", "enabled",
                 "verification_state", "credential_kind", "secret_configured", "secret_rotated_at",
                 "secret_overlap_until", "created_at", "updated_at"}


def _gone_ids(api, make_token) -> dict[str, str]:
    """An absent id, a soft-deleted id and another tenant's id."""
    deleted = api.created()["subscription"]["id"]
    assert api.delete(deleted).status_code == 204
    other = make_token(tenant_id=f"other-{uuid.uuid4().hex[:8]}")
    foreign = api.create({"name": "foreign", "sink_kind": "pull"}, token=other).json()["subscription"]["id"]
    return {"absent": str(new_id()), "deleted": deleted, "foreign": foreign}


def test_get_body_is_the_read_projection(api):
    """R-getSubscription-02, R-X-READ-01: exactly {subscription: SubscriptionRead}, no endpoint field."""
    sub_id = api.created()["subscription"]["id"]
    body = api.get(sub_id).json()
    assert set(body) == {"subscription"} and READ_REQUIRED <= set(body["subscription"])
    assert "endpoint" not in body["subscription"]


@pytest.mark.parametrize("route", ["get", "reveal"])
def test_absent_deleted_and_foreign_ids_are_one_uniform_404(api, make_token, route):
    """R-getSubscription-03, R-revealSubscriptionEndpoint-04, R-X-ORACLE-01: indistinguishable 404s."""
    call = getattr(api, route)
    bodies = []
    for sub_id in [*_gone_ids(api, make_token).values(), "not-a-uuid"]:
        body = problem(call(sub_id), 404, "not_found")
        bodies.append((body["title"], body["detail"], body["code"], body["type"]))
    assert len(set(bodies)) == 1


def test_get_never_carries_the_secret_or_destination(api, allow_loopback):
    """R-getSubscription-04, R-X-SEC-06: endpoint_display only; no signing secret."""
    created = api.created(sink_kind="webhook", endpoint=LOOPBACK_WEBHOOK + "/deep/path?x=1")
    response = api.get(created["subscription"]["id"])
    assert created["signingSecret"] not in response.text and "/deep/path" not in response.text
    assert response.json()["subscription"]["endpoint_display"] == "https://127.0.0.1:8443"


def test_get_is_metered(api):
    """R-getSubscription-05: 200 carries X-RateLimit-Limit/-Remaining/-Reset (allowance A)."""
    response = api.get(api.created()["subscription"]["id"])
    assert {"x-ratelimit-limit", "x-ratelimit-remaining", "x-ratelimit-reset"} <= set(response.headers)


def test_path_id_is_a_uuidv7(api):
    """R-getSubscription-06: ids are UUIDv7; a malformed id is simply not found."""
    sub_id = api.created()["subscription"]["id"]
    assert uuid.UUID(sub_id).version == 7
    problem(api.get("12345"), 404, "not_found")


@pytest.mark.parametrize("kind, endpoint", [
    ("webhook", PUBLIC_WEBHOOK), ("sqs", "https://52.94.0.10/123456789012/orders.fifo"),
    ("rabbitmq", "orders/created.eu"), ("eventbridge", "orders-bus/OrderCreated"), ("pull", None),
])
def test_reveal_returns_the_full_destination(api, kind, endpoint):
    """R-revealSubscriptionEndpoint-02: the stored destination unmasked, {endpoint} only."""
    sub = api.created(sink_kind=kind, **({"endpoint": endpoint} if endpoint else {}))["subscription"]
    body = api.reveal(sub["id"]).json()
    assert body == {"endpoint": endpoint or f"pull://{sub['id']}"}


def test_reveal_needs_the_create_permission(api, make_token):
    """R-revealSubscriptionEndpoint-03, R-X-AUTH-07: subscriptions:get is not enough; detail names the permission."""
    sub_id = api.created()["subscription"]["id"]
    reader = make_token(permissions=["subscriptions:get"])
    refused = problem(api.reveal(sub_id, token=reader), 403, "AUT-1020")
    assert "subscriptions:post" in refused["detail"]
    writer = make_token(permissions=["subscriptions:post"])
    assert api.reveal(sub_id, token=writer).status_code == 200


def test_reveal_is_not_cached_and_metered(api):
    """R-revealSubscriptionEndpoint-05, R-X-SEC-02: Cache-Control: private, no-store plus X-RateLimit-*."""
    response = api.reveal(api.created()["subscription"]["id"])
    assert response.headers["cache-control"] == "private, no-store"
    assert {"x-ratelimit-limit", "x-ratelimit-remaining", "x-ratelimit-reset"} <= set(response.headers)


@pytest.mark.parametrize("kind, endpoint, shown", [
    ("webhook", "https://93.184.215.14/a/b?c=d", "https://93.184.215.14"),
    ("webhook", "https://93.184.215.14:8443/a", "https://93.184.215.14:8443"),
    ("sqs", "https://52.94.0.10/123456789012/orders", "orders"),
    ("rabbitmq", "orders/created", "orders"),
    ("eventbridge", "orders-bus/OrderCreated", "orders-bus"),
])
def test_endpoint_display_per_kind(api, kind, endpoint, shown):
    """R-X-READ-02: scheme and host; queue, exchange or bus name; the pull value unchanged."""
    sub_id = api.created(sink_kind=kind, endpoint=endpoint)["subscription"]["id"]
    assert api.get(sub_id).json()["subscription"]["endpoint_display"] == shown


def test_endpoint_display_of_pull_and_unparseable(api, tenant):
    """R-X-READ-02: pull://… unchanged; "" when the stored destination cannot be parsed."""
    pull = api.created()["subscription"]
    assert api.get(pull["id"]).json()["subscription"]["endpoint_display"] == pull["endpoint"]
    broken = new_id()
    with get_engine().begin() as connection:
        connection.execute(text(
            "INSERT INTO subscriptions (id, tenant_id, name, sink_kind, endpoint, signature_version, plan_tier, "
            "enabled, verification_state, credential_kind, auto_disabled, disabled_reason, created_at, updated_at) "
            "VALUES (:id, :t, 'broken', 'webhook', 'https://[::1', 'v1', 'standard', true, 'active', 'none', "
            "false, '', now(), now())"), {"id": broken, "t": tenant})
    assert api.get(str(broken)).json()["subscription"]["endpoint_display"] == ""


def test_credential_kind_and_secret_metadata(api, allow_loopback):
    """R-X-READ-03, R-X-READ-04, R-X-READ-05: webhook → signing_secret, configured, rotated_at set, no overlap;
    queue/pull → none, not configured, both times null (and always present)."""
    hook = api.created(sink_kind="webhook", endpoint=LOOPBACK_WEBHOOK)["subscription"]
    read = api.get(hook["id"]).json()["subscription"]
    assert read["credential_kind"] == "signing_secret" and read["secret_configured"] is True
    assert read["secret_rotated_at"] == hook["created_at"] and read["secret_overlap_until"] is None
    for kind, endpoint in (("rabbitmq", "orders/"), ("pull", None)):
        sub = api.created(sink_kind=kind, **({"endpoint": endpoint} if endpoint else {}))["subscription"]
        read = api.get(sub["id"]).json()["subscription"]
        assert read["credential_kind"] == "none" and read["secret_configured"] is False
        assert read["secret_rotated_at"] is None and read["secret_overlap_until"] is None


def test_optional_read_fields(api, make_token):
    """R-X-READ-06: delegated_scope only on a delegated subscription; others omitted when unset."""
    plain = api.get(api.created()["subscription"]["id"]).json()["subscription"]
    assert not {"delegated_scope", "event_types", "origin", "event_majors", "timeout_ms", "schema_major"} & set(plain)
    party = make_token(delegated_scope="UGFydHktQw==")
    sub = api.create({"name": "d", "sink_kind": "pull"}, token=party).json()["subscription"]
    assert api.get(sub["id"]).json()["subscription"]["delegated_scope"] == "UGFydHktQw=="


def test_enabled_is_independent_of_verification_state(api):
    """R-X-READ-07, R-X-STATE-01: an auto-disabled row reads enabled false with its state unchanged."""
    sub_id = api.created()["subscription"]["id"]
    with get_engine().begin() as connection:
        connection.execute(text("UPDATE subscriptions SET enabled = false, auto_disabled = true WHERE id = :id"),
                           {"id": sub_id})
    read = api.get(sub_id).json()["subscription"]
    assert read["enabled"] is False and read["verification_state"] == "active"

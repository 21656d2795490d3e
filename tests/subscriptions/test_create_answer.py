"""POST /v1/subscriptions on the real database, continued: schema pins, the answer and its replay, the secret,
the projection, names taken, and DNS failures (R-createSubscription-*)."""

from __future__ import annotations

import uuid

import pytest

from hub.secrets import unseal
from devkit.dnsserver import dns_server
from tests.subscriptions.conftest import (
    LOOPBACK_WEBHOOK, PUBLIC_WEBHOOK, db_row, new_key, problem, subscription_version,
)
from tests.subscriptions.test_create import _count_named

SUBSCRIPTION_REQUIRED = {"id", "name", "sink_kind", "endpoint", "signature_version", "plan_tier", "enabled",
                         "verification_state", "created_at", "updated_at"}
SUBSCRIPTION_OPTIONAL = {"event_types", "schema_major", "event_majors", "origin", "timeout_ms"}


def test_schema_major_pin_is_optional(api):
    """R-createSubscription-19: omitted → follows major 1 (schema_major absent); a pin is kept; < 1 refused."""
    assert "schema_major" not in api.created()["subscription"]
    assert api.created(schema_major=3)["subscription"]["schema_major"] == 3
    problem(api.create({"name": "z", "sink_kind": "pull", "schema_major": 0}), 422, "validation_error")


@pytest.mark.parametrize("majors, types", [
    ({"a.b": 0}, ["a.b"]), ({"a.b": 2147483648}, ["a.b"]), ({"c.d": 1}, ["a.b"]),
])
def test_event_majors_values_and_keys_are_checked(api, majors, types):
    """R-createSubscription-20: each value 1–2147483647; keys must be listed event types."""
    body = {"name": "em", "sink_kind": "pull", "event_types": types, "event_majors": majors}
    assert problem(api.create(body), 422, "validation_error")["errors"][0]["location"].startswith("event_majors/")


def test_event_majors_are_stored_and_not_patchable(api):
    """R-createSubscription-20, R-updateSubscriptionSchemaMajor-05: event_majors is kept; PATCH refuses it
    (out-of-scope field) with 422 validation_error naming the field."""
    sub = api.created(event_majors={"hub.destination.disabled": 1})["subscription"]
    assert sub["event_majors"] == {"hub.destination.disabled": 1}
    refused = problem(api.patch(sub["id"], {"schema_major": 1, "event_majors": {"x.y": 2}}), 422, "validation_error")
    assert [error["location"] for error in refused["errors"]] == ["event_majors"]


def test_create_answer_is_not_cached(api):
    """R-createSubscription-21, R-X-SEC-02: the 201 carries Cache-Control: private, no-store."""
    response = api.create({"name": "cc", "sink_kind": "pull"})
    assert response.status_code == 201 and response.headers["cache-control"] == "private, no-store"


def test_replay_returns_the_original_201_byte_for_byte(api, tenant, allow_loopback):
    """R-createSubscription-22, R-X-IDEM-03, R-X-IDEM-04, R-X-SEC-01: same key + same body → same bytes
    (same id and secret) with X-Idempotency-Replayed: true; nothing new is created."""
    key = new_key()
    body = {"name": "replayed", "sink_kind": "webhook", "endpoint": LOOPBACK_WEBHOOK}
    first = api.create(body, key=key)
    assert first.status_code == 201 and "x-idempotency-replayed" not in first.headers
    version = subscription_version()
    again = api.create(body, key=key)
    assert again.status_code == 201 and again.content == first.content
    assert again.headers["x-idempotency-replayed"] == "true"
    assert again.headers["cache-control"] == "private, no-store"
    assert again.headers["content-type"] == first.headers["content-type"]
    assert _count_named(tenant, "replayed") == 1 and subscription_version() == version


def test_secret_is_never_read_back_and_stored_only_sealed(api, allow_loopback):
    """R-createSubscription-23, R-X-SEC-01, R-X-SEC-03, R-X-SEC-06: no read route returns the secret;
    the row holds only an envelope that opens to it."""
    created = api.created(sink_kind="webhook", endpoint=LOOPBACK_WEBHOOK)
    secret, sub_id = created["signingSecret"], created["subscription"]["id"]
    for response in (api.get(sub_id), api.list(), api.reveal(sub_id)):
        assert response.status_code == 200 and secret not in response.text and "signingSecret" not in response.text
    row = db_row(sub_id)
    assert secret not in str(row) and row["secret_current"].startswith("v1.")
    assert unseal(row["secret_current"], context=f"{sub_id}:secret_current").decode() == secret


def test_create_body_is_exactly_subscription_and_secret(api):
    """R-createSubscription-24: {subscription, signingSecret}; subscription has endpoint, not endpoint_display."""
    body = api.created()
    assert set(body) == {"subscription", "signingSecret"}
    assert "endpoint" in body["subscription"] and "endpoint_display" not in body["subscription"]


def test_subscription_projection_fields(api):
    """R-createSubscription-25: required fields, UUIDv7 id, no extra property, no secret material."""
    sub = api.created(sink_kind="rabbitmq", endpoint="orders/")["subscription"]
    assert SUBSCRIPTION_REQUIRED <= set(sub) <= SUBSCRIPTION_REQUIRED | SUBSCRIPTION_OPTIONAL
    assert uuid.UUID(sub["id"]).version == 7
    assert sub["signature_version"] == 1 and sub["plan_tier"] == "standard" and sub["enabled"] is True
    assert sub["created_at"].endswith("Z") and sub["updated_at"].endswith("Z")


def test_optional_fields_only_when_set(api):
    """R-createSubscription-26: event_types, event_majors, origin, timeout_ms, schema_major omitted when unset."""
    bare = api.created()["subscription"]
    assert not SUBSCRIPTION_OPTIONAL & set(bare)
    full = api.created(event_types=["hub.destination.disabled"], origin="streaming-hub", schema_major=1,
                       event_majors={"hub.destination.disabled": 1})["subscription"]
    assert {"event_types", "origin", "schema_major", "event_majors"} <= set(full)


def test_name_taken_names_the_holder(api, tenant):
    """R-createSubscription-27, R-X-PROB-07: a live holder in scope → 409 subscription_name_taken + existing_id."""
    holder = api.created(name="taken")["subscription"]
    refused = problem(api.create({"name": "taken", "sink_kind": "pull"}), 409, "subscription_name_taken")
    assert refused["existing_id"] == holder["id"]
    assert problem(api.create({"name": " taken ", "sink_kind": "pull"}), 409, "subscription_name_taken")


def test_name_taken_refusal_is_the_keys_answer(api):
    """R-createSubscription-28, R-X-IDEM-08, R-deleteSubscription-07: the 409 is stored and replayed for its
    key even after the holder is deleted; a new key then succeeds."""
    holder = api.created(name="held")["subscription"]
    key = new_key()
    first = api.create({"name": "held", "sink_kind": "pull"}, key=key)
    problem(first, 409, "subscription_name_taken")
    assert api.delete(holder["id"]).status_code == 204
    replay = api.create({"name": "held", "sink_kind": "pull"}, key=key)
    assert replay.status_code == 409 and replay.content == first.content
    assert replay.headers["x-idempotency-replayed"] == "true"
    assert api.create({"name": "held", "sink_kind": "pull"}).status_code == 201


def test_key_reused_with_another_body_conflicts(api, tenant):
    """R-createSubscription-29, R-X-IDEM-05, R-X-IDEM-07: same key, different request → 409, nothing ran."""
    key = new_key()
    assert api.create({"name": "first", "sink_kind": "pull"}, key=key).status_code == 201
    problem(api.create({"name": "second", "sink_kind": "pull"}, key=key), 409, "idempotency_conflict")
    assert _count_named(tenant, "second") == 0
    assert api.create({"name": "second", "sink_kind": "pull"}).status_code == 201  # a new key re-drives


def test_dns_failures_write_nothing_and_the_key_can_retry(api, tenant, override_settings):
    """R-createSubscription-31, R-createSubscription-32, R-X-IDEM-08: dns_unavailable (503, Retry-After) and
    dns_timeout (504, no Retry-After) are not stored; the same key then succeeds."""
    zone = {"hooks.example.test": "SERVFAIL", "slow.example.test": "DROP"}
    with dns_server(zone) as server:
        override_settings(dns_nameservers=server.address, dns_timeout_seconds=0.5)
        key = new_key()
        body = {"name": "dns", "sink_kind": "webhook", "endpoint": "https://hooks.example.test/in"}
        unavailable = api.create(body, key=key)
        problem(unavailable, 503, "dns_unavailable")
        assert int(unavailable.headers["retry-after"]) >= 1
        problem(api.create(body, key=key), 503, "dns_unavailable")  # not stored: it runs again
        slow = {**body, "endpoint": "https://slow.example.test/in"}
        timed_out = api.create(slow, key=new_key())
        problem(timed_out, 504, "dns_timeout")
        assert "retry-after" not in timed_out.headers
        assert _count_named(tenant, "dns") == 0
        server.zone["hooks.example.test"] = [("A", "93.184.215.14")]
        assert api.create(body, key=key).status_code == 201


@pytest.mark.parametrize("kind, endpoint", [
    ("rabbitmq", "amqps://user:pass@broker.example.com:5671/orders"), ("eventbridge", "https://events.example/bus"),
])
def test_queue_connection_details_do_not_belong_in_endpoint(api, kind, endpoint):
    """R-createSubscription-33: a broker URL (host, credentials) in a queue endpoint is refused."""
    problem(api.create({"name": "q", "sink_kind": kind, "endpoint": endpoint}), 422, "validation_error")


def test_public_webhook_needs_no_allow_list(api):
    """R-createSubscription-11: a public https IP literal passes the SSRF check as is."""
    sub = api.created(sink_kind="webhook", endpoint=PUBLIC_WEBHOOK)["subscription"]
    assert sub["endpoint"] == PUBLIC_WEBHOOK

"""POST /v1/subscriptions (R-createSubscription-*, R-X-STATE-02) on the real database."""

from __future__ import annotations

import base64
import uuid

import pytest
from sqlalchemy import text

from hub.db import get_engine
from hub.secrets import unseal
from devkit.dnsserver import dns_server
from tests.subscriptions.conftest import (
    LOOPBACK_WEBHOOK, PUBLIC_WEBHOOK, db_row, new_key, problem, subscription_version, unique_source,
)

SUBSCRIPTION_REQUIRED = {"id", "name", "sink_kind", "endpoint", "signature_version", "plan_tier", "enabled",
                         "verification_state", "created_at", "updated_at"}
SUBSCRIPTION_OPTIONAL = {"event_types", "schema_major", "event_majors", "origin", "timeout_ms"}
QUEUE_ENDPOINTS = {"sqs": "https://52.94.0.10/123456789012/orders", "rabbitmq": "orders/created",
                   "eventbridge": "orders-bus/OrderCreated"}


def _count_named(tenant: str, name: str) -> int:
    with get_engine().connect() as connection:
        return connection.execute(text("SELECT count(*) FROM subscriptions WHERE tenant_id = :t AND name = :n"),
                                  {"t": tenant, "n": name}).scalar_one()


def test_missing_idempotency_key_rejected_before_any_write(api, tenant):
    """R-createSubscription-02, R-X-IDEM-01, R-X-IDEM-02: no X-Idempotency → 400, nothing created."""
    response = api.create({"name": "no-key", "sink_kind": "pull"}, key=None)
    problem(response, 400, "missing_idempotency_key")
    blank = api.create({"name": "no-key", "sink_kind": "pull"}, key="   ")
    problem(blank, 400, "missing_idempotency_key")
    assert _count_named(tenant, "no-key") == 0


def test_tenant_comes_from_the_token_not_the_body(api, tenant, make_token):
    """R-createSubscription-03, R-X-AUTH-05: a tenant_id in the body is ignored."""
    body = api.created(name="mine", tenant_id="someone-else")
    assert db_row(body["subscription"]["id"])["tenant_id"] == tenant
    other = make_token(tenant_id="someone-else")
    assert api.get(body["subscription"]["id"], token=other).status_code == 404


def test_webhook_is_born_pending_with_a_minted_secret(api, allow_loopback):
    """R-createSubscription-04, R-X-STATE-02: webhook → pending_verification and a 32-byte base64 secret."""
    body = api.created(sink_kind="webhook", endpoint=LOOPBACK_WEBHOOK)
    assert body["subscription"]["verification_state"] == "pending_verification"
    assert len(base64.b64decode(body["signingSecret"], validate=True)) == 32


@pytest.mark.parametrize("kind", ["sqs", "rabbitmq", "eventbridge"])
def test_queue_kinds_are_pending_and_mint_no_secret(api, kind):
    """R-createSubscription-05, R-X-STATE-02: queue kinds → pending_verification, signingSecret ""."""
    body = api.created(sink_kind=kind, endpoint=QUEUE_ENDPOINTS[kind])
    assert body["signingSecret"] == ""
    assert body["subscription"]["verification_state"] == "pending_verification"
    assert body["subscription"]["endpoint"] == QUEUE_ENDPOINTS[kind]
    assert db_row(body["subscription"]["id"])["secret_current"] is None


def test_pull_is_born_active(api):
    """R-createSubscription-06, R-X-STATE-02, R-X-STATE-01: pull → active (nothing to probe)."""
    body = api.created(sink_kind="pull")
    assert body["subscription"]["verification_state"] == "active" and body["subscription"]["enabled"] is True


def test_pending_subscription_stays_pending_without_a_probe(api, allow_loopback):
    """R-createSubscription-07, R-X-STATE-01: create, reads and a re-pin never activate a pending webhook
    (activation comes only from the probes of the delivery routes)."""
    sub = api.created(sink_kind="webhook", endpoint=LOOPBACK_WEBHOOK)["subscription"]
    assert api.patch(sub["id"], {"schema_major": 2}).status_code == 200
    assert api.get(sub["id"]).json()["subscription"]["verification_state"] == "pending_verification"


@pytest.mark.parametrize("field", ["sink_config", "credential"])
def test_inline_sink_config_is_forbidden(api, tenant, field):
    """R-createSubscription-08, R-X-SEC-04: inline sink_config / credential → 422, nothing stored."""
    body = {"name": "inline", "sink_kind": "rabbitmq", "endpoint": "orders/", field: {"uri": "amqp://u:p@h/"}}
    problem(api.create(body), 422, "inline_sink_config_forbidden")
    assert _count_named(tenant, "inline") == 0


def test_name_is_required_and_not_blank(api):
    """R-createSubscription-09: a missing or blank name is 422 validation_error naming it."""
    missing = problem(api.create({"sink_kind": "pull"}), 422, "validation_error")
    assert missing["errors"][0]["location"] == "name"
    blank = problem(api.create({"name": "  \t ", "sink_kind": "pull"}), 422, "validation_error")
    assert blank["errors"][0]["location"] == "name"


def test_sink_kind_must_be_one_of_the_five(api):
    """R-createSubscription-10: the five kinds are accepted; another is 422 validation_error naming sink_kind."""
    refused = problem(api.create({"name": "x", "sink_kind": "ftp"}), 422, "validation_error")
    assert refused["errors"][0]["location"] == "sink_kind"
    endpoints = {**QUEUE_ENDPOINTS, "webhook": PUBLIC_WEBHOOK, "pull": None}
    for kind, endpoint in endpoints.items():
        body = {"sink_kind": kind, **({"endpoint": endpoint} if endpoint else {})}
        assert api.created(**body)["subscription"]["sink_kind"] == kind


@pytest.mark.parametrize("kind, endpoint", [
    ("webhook", "http://93.184.215.14/hook"),
    ("webhook", "https://user:pass@93.184.215.14/hook"),
    ("webhook", None),
    ("sqs", "http://52.94.0.10/123456789012/orders"),
    ("sqs", "https://52.94.0.10/not-a-queue-url"),
    ("rabbitmq", "/routing-key-only"),
    ("rabbitmq", "bad exchange/key"),
    ("eventbridge", ""),
    ("eventbridge", "bus with spaces"),
])
def test_endpoint_shape_per_sink_kind_is_enforced(api, kind, endpoint):
    """R-createSubscription-11: webhook https without userinfo; sqs https queue URL; rabbitmq
    "<exchange>/<routing key>"; eventbridge bus name / detail-type."""
    body = {"name": "shape", "sink_kind": kind}
    if endpoint is not None:
        body["endpoint"] = endpoint
    refused = problem(api.create(body), 422, "validation_error")
    assert refused["errors"][0]["location"] == "endpoint"


@pytest.mark.parametrize("endpoint", ["orders/created", "orders/", "orders"])
def test_rabbitmq_routing_key_is_optional(api, endpoint):
    """R-createSubscription-11, N13: the exchange is required, the routing key may be empty or omitted."""
    assert api.created(sink_kind="rabbitmq", endpoint=endpoint)["subscription"]["endpoint"] == endpoint


def test_pull_endpoint_is_synthesized(api):
    """R-createSubscription-12: pull omits endpoint; the hub writes pull://<id>; a sent one is refused."""
    sub = api.created(sink_kind="pull")["subscription"]
    assert sub["endpoint"] == f"pull://{sub['id']}"
    problem(api.create({"name": "p", "sink_kind": "pull", "endpoint": "pull://mine"}), 422, "validation_error")


@pytest.mark.parametrize("endpoint", [
    LOOPBACK_WEBHOOK, "https://169.254.169.254/latest/meta-data", "https://10.0.0.7/hook",
    "https://[::ffff:127.0.0.1]/hook", "https://0x7f000001/hook",
])
def test_blocked_webhook_endpoint_is_refused(api, tenant, endpoint):
    """R-createSubscription-13: loopback, metadata, RFC 1918 and disguised forms → 422 endpoint_blocked."""
    problem(api.create({"name": "blocked", "sink_kind": "webhook", "endpoint": endpoint}), 422, "endpoint_blocked")
    assert _count_named(tenant, "blocked") == 0


def test_allow_list_admits_loopback(api, allow_loopback):
    """R-createSubscription-13: the egress allow-list (a private deployment) lets loopback through."""
    assert api.created(sink_kind="webhook", endpoint=LOOPBACK_WEBHOOK)["subscription"]["endpoint"] == LOOPBACK_WEBHOOK


def test_unknown_event_types_are_refused_one_error_each(api, catalog):
    """R-createSubscription-14, R-X-PROB-05: one errors[] entry per refused type, naming type and major."""
    source = unique_source()
    catalog.add(source, [(source, "posted", 1), (source, "voided", 2)])
    body = {"name": "cat", "sink_kind": "pull",
            "event_types": [f"{source}.posted", f"{source}.creatd", f"{source}.voided", "hub.destination.disabled"]}
    refused = problem(api.create(body), 422, "unknown_event_type")
    assert refused["errors"] == [
        {"location": "event_types/1", "message": f'"{source}.creatd" has no catalog entry at schema major 1'},
        {"location": "event_types/2", "message": f'"{source}.voided" has no catalog entry at schema major 1'},
    ]
    body["event_types"] = [f"{source}.posted", "hub.destination.disabled"]
    assert api.create(body).status_code == 201


def test_catalog_check_uses_the_major_and_the_origin(api, catalog):
    """R-createSubscription-14, R-createSubscription-19, R-createSubscription-20: the check runs at
    schema_major / event_majors, and only against the origin producer when origin is set."""
    ledger, other = unique_source(), unique_source()
    catalog.add(ledger, [(ledger, "posted", 2), (ledger, "voided", 1)])
    catalog.add(other, [(ledger, "voided", 3)])
    types = [f"{ledger}.posted", f"{ledger}.voided"]
    refused = problem(api.create({"name": "m", "sink_kind": "pull", "event_types": types}), 422, "unknown_event_type")
    assert [entry["location"] for entry in refused["errors"]] == ["event_types/0"]
    pinned = {"name": "m2", "sink_kind": "pull", "event_types": types, "schema_major": 2,
              "event_majors": {f"{ledger}.voided": 1}}
    assert api.create(pinned).status_code == 201
    from_origin = {"name": "m3", "sink_kind": "pull", "event_types": [f"{ledger}.voided"], "origin": ledger,
                   "event_majors": {f"{ledger}.voided": 3}}
    refused = problem(api.create(from_origin), 422, "unknown_event_type")
    assert refused["errors"][0]["message"].endswith(f'at schema major 3 from origin "{ledger}"')
    assert api.create({**from_origin, "origin": other}).status_code == 201


def test_hub_lifecycle_events_come_only_from_the_hub_origin(api, catalog):
    """R-createSubscription-14: a hub.* key is known only without origin or with the hub's own origin;
    with another producer's origin it is refused as unknown_event_type naming the origin."""
    ledger = unique_source()
    catalog.add(ledger, [(ledger, "posted", 1)])
    body = {"name": "life", "sink_kind": "pull", "event_types": ["hub.destination.disabled"]}
    refused = problem(api.create({**body, "origin": ledger}), 422, "unknown_event_type")
    assert refused["errors"] == [{"location": "event_types/0", "message": '"hub.destination.disabled" has no '
                                  f'catalog entry at schema major 1 from origin "{ledger}"'}]
    assert api.create({**body, "origin": "streaming-hub"}).status_code == 201
    assert api.create({**body, "name": "life2"}).status_code == 201


def test_unreadable_catalog_accepts_event_types_unchecked(api, catalog):
    """R-createSubscription-15: a catalog that cannot be read in time does not refuse event types."""
    source = unique_source()
    catalog.add(source, [(source, "posted", 1)])
    body = {"name": "unread", "sink_kind": "pull", "event_types": [f"{source}.never-listed"]}
    problem(api.create(body), 422, "unknown_event_type")
    with get_engine().connect() as blocker:
        with blocker.begin():
            blocker.execute(text("LOCK TABLE catalog_events IN ACCESS EXCLUSIVE MODE"))
            response = api.create(body)
    assert response.status_code == 201, response.text


def test_omitted_event_types_subscribe_to_everything(api):
    """R-createSubscription-16: no event_types → every type, and the projection omits event_types."""
    sub = api.created(sink_kind="pull")["subscription"]
    assert "event_types" not in sub and db_row(sub["id"])["event_types"] is None
    assert "event_types" not in api.get(sub["id"]).json()["subscription"]


def test_event_types_outside_the_nature_are_refused(api, make_token, catalog):
    """R-createSubscription-17, N16: a delegated credential may only name types its nature covers."""
    source = unique_source()
    catalog.add(source, [(source, "posted", 1), (source, "voided", 1), ("other", "thing", 1)])
    token = make_token(delegated_scope="UGFydHktQQ==", nature=[f"{source}.*"])
    outside = {"name": "nat", "sink_kind": "pull", "event_types": [f"{source}.posted", "other.thing"]}
    refused = problem(api.create(outside, token=token), 422, "event_type_outside_nature")
    assert refused["errors"] == [{"location": "event_types/1", "message": '"other.thing" is outside the '
                                  "credential's nature"}]
    problem(api.create({"name": "all", "sink_kind": "pull"}, token=token), 422, "event_type_outside_nature")
    inside = api.create({**outside, "event_types": [f"{source}.posted", f"{source}.voided"]}, token=token)
    assert inside.status_code == 201


@pytest.mark.parametrize("timeout, stored", [(None, None), (0, None), (1000, 1000), (20000, 20000), (10000, None)])
def test_webhook_timeout_range_and_default(api, allow_loopback, timeout, stored):
    """R-createSubscription-18: 1000–20000 for webhooks; omitted or 0 means the 10000 default (omitted)."""
    body = {"sink_kind": "webhook", "endpoint": LOOPBACK_WEBHOOK}
    if timeout is not None:
        body["timeout_ms"] = timeout
    sub = api.created(**body)["subscription"]
    assert sub.get("timeout_ms") == stored


@pytest.mark.parametrize("kind, endpoint, timeout", [
    ("webhook", LOOPBACK_WEBHOOK, 999), ("webhook", LOOPBACK_WEBHOOK, 20001), ("webhook", LOOPBACK_WEBHOOK, -5),
    ("pull", None, 5000), ("rabbitmq", "orders/", 1000),
])
def test_timeout_out_of_range_or_not_webhook_is_refused(api, allow_loopback, kind, endpoint, timeout):
    """R-createSubscription-18: out of range, or non-zero on a non-webhook kind → 422 validation_error."""
    body = {"name": "t", "sink_kind": kind, "timeout_ms": timeout, **({"endpoint": endpoint} if endpoint else {})}
    assert problem(api.create(body), 422, "validation_error")["errors"][0]["location"] == "timeout_ms"


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

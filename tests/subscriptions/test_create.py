"""POST /v1/subscriptions (R-createSubscription-*, R-X-STATE-02) on the real database."""

from __future__ import annotations

import base64

import pytest
from sqlalchemy import text

from hub.db import get_engine
from tests.subscriptions.conftest import (
    LOOPBACK_WEBHOOK, PUBLIC_WEBHOOK, db_row, problem, unique_source,
)

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

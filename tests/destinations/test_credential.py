"""PUT /v1/subscriptions/{id}/credential: probe-on-write against real destinations (R-putSubscriptionCredential-*)."""

from __future__ import annotations

import logging

import orjson
import pytest
from sqlalchemy import text

from hub.db import get_engine
from hub.secrets import unseal
from tests.subscriptions.conftest import db_row, problem, subscription_version
from devkit.destinations import STATIC_AWS


def _rabbit_sub(api, rabbit) -> tuple[str, str]:
    exchange, _ = rabbit.exchange_with_queue()
    return api.subscription("rabbitmq", f"{exchange}/orders.created"), exchange


def _uri(password: str = "hub") -> str:
    from hub.config import get_settings

    return get_settings().rabbitmq_url.replace("hub:hub@", f"hub:{password}@")


def _set(sub_id: str, **values) -> None:
    assignments = ", ".join(f"{name} = :{name}" for name in values)
    with get_engine().begin() as connection:
        connection.execute(text(f"UPDATE subscriptions SET {assignments} WHERE id = :id"), {"id": sub_id, **values})


def test_rabbitmq_success_stores_sealed_and_activates(api, rabbit, loopback_broker, caplog):
    """R-putSubscriptionCredential-02/04/06/11/12, R-X-SEC-03/04, R-X-STATE-03/07/08: a probe that connects,
    logs in and finds the exchange stores the credential sealed, moves pending → active, answers a bare
    ok ProbeResult with statusCode 0; the read projection says static_credential and never shows it; no log
    line carries it."""
    caplog.set_level(logging.DEBUG)
    sub_id, _ = _rabbit_sub(api, rabbit)
    version = subscription_version()
    response = api.put_credential(sub_id, {"sinkConfig": {"uri": _uri()}})
    assert response.status_code == 200, response.text
    assert response.json() == {"outcome": "ok", "statusCode": 0, "errorClass": ""}
    row = db_row(sub_id)
    assert row["verification_state"] == "active" and row["credential_kind"] == "static_credential"
    assert orjson.loads(unseal(row["credential_sealed"], context=f"{sub_id}:credential")) == {"uri": _uri()}
    assert "hub:hub@" not in row["credential_sealed"] and subscription_version() > version
    read = api.get(sub_id)
    assert read.json()["subscription"]["secret_configured"] is True
    assert read.json()["subscription"]["credential_kind"] == "static_credential"
    for text_seen in (read.text, api.list().text, api.reveal(sub_id).text, caplog.text):
        assert _uri() not in text_seen and "hub:hub" not in text_seen


@pytest.mark.parametrize("case", ["wrong_password", "missing_exchange", "broker_down"])
def test_rabbitmq_failed_probe_stores_nothing(api, rabbit, loopback_broker, case):
    """R-putSubscriptionCredential-03/05, R-X-STATE-07/09: a classified failure is 200 outcome failed with the
    class and an explaining detail; nothing is stored, the state stays pending, enabled is untouched."""
    sub_id, exchange = _rabbit_sub(api, rabbit)
    uri, expected = _uri(), "auth_failed"
    if case == "wrong_password":
        uri = _uri("not-the-password")
    elif case == "missing_exchange":
        _set(sub_id, endpoint=f"absent-{exchange}/orders.created")
        expected = "destination_missing"
    else:
        uri, expected = "amqp://hub:hub@127.0.0.1:1/%2F", "connect_refused"
    body = api.put_credential(sub_id, {"sinkConfig": {"uri": uri}}).json()
    assert body["outcome"] == "failed" and body["statusCode"] == 0 and body["errorClass"] == expected
    assert body["detail"] and "hub:" not in body["detail"]
    assert set(body) == {"outcome", "statusCode", "errorClass", "detail"}
    row = db_row(sub_id)
    assert row["credential_sealed"] is None and row["verification_state"] == "pending_verification"
    assert row["credential_kind"] == "none" and row["enabled"] is True


def test_a_failed_rotation_keeps_the_stored_credential_in_force(api, rabbit, loopback_broker):
    """R-putSubscriptionCredential-03/05: a rotation whose probe fails stores nothing, and the stored credential
    stays in force: an active destination stays active (deliverable on it), nothing is written, enabled is
    left as it was."""
    sub_id, _ = _rabbit_sub(api, rabbit)
    assert api.put_credential(sub_id, {"sinkConfig": {"uri": _uri()}}).json()["outcome"] == "ok"
    before = db_row(sub_id)
    failed = api.put_credential(sub_id, {"sinkConfig": {"uri": _uri("rotated-wrong")}}).json()
    assert failed["outcome"] == "failed" and failed["errorClass"] == "auth_failed"
    row = db_row(sub_id)
    assert row["verification_state"] == "active" and row["credential_sealed"] == before["credential_sealed"]
    assert row["enabled"] is True and row["updated_at"] == before["updated_at"]


def test_rotation_fixes_a_degraded_destination_and_keeps_enabled(api, rabbit, loopback_broker):
    """R-putSubscriptionCredential-03/04/05, R-X-STATE-05: a failed rotation keeps the working credential; a good
    rotation brings a degraded destination back to active; an auto-disabled subscription stays disabled
    throughout (only verify re-enables)."""
    sub_id, _ = _rabbit_sub(api, rabbit)
    assert api.put_credential(sub_id, {"sinkConfig": {"uri": _uri()}}).json()["outcome"] == "ok"
    kept = db_row(sub_id)["credential_sealed"]
    _set(sub_id, enabled=False, auto_disabled=True, disabled_reason="failing for 5 days", verification_state="degraded")
    failed = api.put_credential(sub_id, {"sinkConfig": {"uri": _uri("rotated-wrong")}}).json()
    assert failed["errorClass"] == "auth_failed"
    row = db_row(sub_id)
    assert row["verification_state"] == "degraded" and row["credential_sealed"] == kept and row["enabled"] is False
    fixed = api.put_credential(sub_id, {"sinkConfig": {"uri": _uri()}})
    assert fixed.json()["outcome"] == "ok"
    row = db_row(sub_id)
    assert row["verification_state"] == "active" and row["enabled"] is False and row["credential_sealed"] != kept


@pytest.mark.parametrize("kind", ["sqs", "eventbridge"])
def test_aws_static_credential(api, aws_destinations, kind):
    """R-putSubscriptionCredential-02/04/10/11: SQS is probed with GetQueueAttributes, EventBridge with
    DescribeEventBus (moto); a missing queue or bus fails with the AWS step and code in the detail."""
    endpoint = aws_destinations.queue() if kind == "sqs" else aws_destinations.bus_with_tap()[0]
    good = api.subscription(kind, endpoint)
    missing = api.subscription(kind, endpoint + "-absent")
    assert api.put_credential(good, {"sinkConfig": STATIC_AWS}).json() == {
        "outcome": "ok", "statusCode": 0, "errorClass": ""}
    assert db_row(good)["verification_state"] == "active"
    body = api.put_credential(missing, {"sinkConfig": STATIC_AWS}).json()
    assert body["errorClass"] == "destination_missing" and body["statusCode"] == 0
    step = "sqs:GetQueueAttributes" if kind == "sqs" else "events:DescribeEventBus"
    assert body["detail"].startswith(step) and ("NonExistentQueue" in body["detail"]
                                                or "ResourceNotFoundException" in body["detail"])
    assert db_row(missing)["credential_sealed"] is None


@pytest.mark.parametrize("host", ["10.0.0.7", "169.254.169.254", "127.0.0.1"])
def test_blocked_broker_host(api, rabbit, host):
    """R-putSubscriptionCredential-09: a broker host resolving to a private, metadata or loopback address →
    422 endpoint_blocked; nothing persisted, no probe ran."""
    sub_id, _ = _rabbit_sub(api, rabbit)
    problem(api.put_credential(sub_id, {"sinkConfig": {"uri": f"amqp://u:p@{host}:5672/"}}), 422, "endpoint_blocked")
    assert db_row(sub_id)["credential_sealed"] is None


def test_blocked_queue_url(api, aws_destinations, override_settings):
    """R-putSubscriptionCredential-09: a queue URL that now resolves to a blocked address → endpoint_blocked."""
    override_settings(egress_allow_cidrs="127.0.0.0/8")
    sub_id = api.subscription("sqs", "https://127.0.0.1/123456789012/q")
    override_settings(egress_allow_cidrs="")
    problem(api.put_credential(sub_id, {"sinkConfig": STATIC_AWS}), 422, "endpoint_blocked")


@pytest.mark.parametrize("body, status, code", [
    ({}, 422, "validation_error"),
    ({"sinkConfig": {}}, 422, "validation_error"),
    ({"sinkConfig": "amqp://x"}, 422, "validation_error"),
    ({"sinkConfig": {"uri": "amqp://u:p@93.184.215.14/"}, "extra": 1}, 422, "validation_error"),
    ({"sinkConfig": {"uri": "http://u:p@93.184.215.14/"}}, 422, "validation_error"),
    (None, 400, "bad_request"),
])
def test_body_validation(api, rabbit, body, status, code):
    """R-putSubscriptionCredential-07/08/10: a non-JSON body is 400 bad_request; an absent or empty sinkConfig,
    unknown fields or a malformed uri are 422 validation_error."""
    sub_id, _ = _rabbit_sub(api, rabbit)
    response = api.put_credential(sub_id, body, raw=b"{not json" if body is None else None)
    problem(response, status, code)


@pytest.mark.parametrize("kind, endpoint", [("webhook", "https://93.184.215.14/hook"), ("pull", None)])
def test_kinds_without_credentials(api, kind, endpoint):
    """D5: the credential PUT on webhook or pull → 422 validation_error."""
    sub_id = api.subscription(kind, endpoint)
    problem(api.put_credential(sub_id, {"sinkConfig": {"uri": "amqp://u:p@93.184.215.14/"}}), 422, "validation_error")


def test_uniform_404(api, make_token, rabbit):
    """R-putSubscriptionCredential-13, R-X-ORACLE-01: absent, malformed, deleted and cross-tenant ids → 404."""
    sub_id, _ = _rabbit_sub(api, rabbit)
    other = make_token(tenant_id="t-someone-else")
    body = {"sinkConfig": {"uri": "amqp://u:p@93.184.215.14/"}}
    problem(api.put_credential(sub_id, body, token=other), 404, "not_found")
    problem(api.put_credential("0190a1b2-c3d4-7e5f-8a9b-0c1d2e3f4a5b", body), 404, "not_found")
    problem(api.put_credential("not-a-uuid", body), 404, "not_found")
    assert api.delete(sub_id).status_code == 204
    problem(api.put_credential(sub_id, body), 404, "not_found")


def test_activation_releases_held_jobs(api, rabbit, loopback_broker):
    """D23, R-X-STATE-03: jobs held while the destination was pending become due as soon as a credential
    PUT activates it (the same transaction as the state move)."""
    import uuid
    from datetime import UTC, datetime, timedelta

    sub_id, _ = _rabbit_sub(api, rabbit)
    job_id, later = uuid.uuid4(), datetime.now(UTC) + timedelta(hours=3)
    with get_engine().begin() as connection:
        tenant = connection.execute(text("SELECT tenant_id FROM subscriptions WHERE id = :id"),
                                    {"id": sub_id}).scalar_one()
        connection.execute(text(
            "INSERT INTO delivery_jobs (id, tenant_id, subscription_id, event_seq, state, attempts, next_attempt_at, "
            "last_error_class, created_at, updated_at) VALUES (:id, :t, :s, 1, 'pending', 0, :later, '', now(), now())"),
            {"id": job_id, "t": tenant, "s": sub_id, "later": later})
    assert api.put_credential(sub_id, {"sinkConfig": {"uri": _uri()}}).json()["outcome"] == "ok"
    with get_engine().begin() as connection:
        due = connection.execute(text("SELECT next_attempt_at FROM delivery_jobs WHERE id = :id"),
                                 {"id": job_id}).scalar_one()
        connection.execute(text("DELETE FROM delivery_jobs WHERE id = :id"), {"id": job_id})
    assert due <= datetime.now(UTC)

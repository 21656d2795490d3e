"""POST /v1/subscriptions/{id}/ping through the real webhook path to a real HTTPS receiver.

Rules: R-pingSubscription-01..08, R-X-STATE-03, R-X-STATE-04, R-X-STATE-05, R-X-STATE-07..09.
"""

from __future__ import annotations

import uuid
from typing import Any

import pytest
from standardwebhooks import Webhook

from hub.db import libpq_url
from tests.deliver.conftest import insert_events, insert_subscription, sql
from tests.sinks.conftest import HOOK_HOST, ca, ca_bundle, hook_dns  # noqa: F401 (shared fixtures)
from devkit.receiver import Receiver, Reply, scripted_receiver


@pytest.fixture
def receiver(ca, hook_dns) -> Any:  # noqa: ANN001
    with scripted_receiver(ca, (HOOK_HOST,)) as state:
        yield state


def hook(receiver: Receiver) -> str:
    return f"https://{HOOK_HOST}:{receiver.port}/hooks"


def state_of(sub: uuid.UUID) -> tuple[str, bool]:
    [(state, enabled)] = sql(libpq_url(), "SELECT verification_state, enabled FROM subscriptions WHERE id = %s", (sub,))
    return state, enabled


def ping(client, headers: dict[str, str], sub: Any) -> Any:  # noqa: ANN001
    return client.post(f"/v1/subscriptions/{sub}/ping", headers=headers)


def test_success_activates_and_is_signed(client, auth_headers, tenant, receiver: Receiver) -> None:  # noqa: ANN001
    """R-pingSubscription-02/03/05: a signed probe; ok moves pending_verification to active; no idempotency key."""
    sub, (secret,) = insert_subscription(libpq_url(), tenant, hook(receiver), state="pending_verification")
    response = ping(client, auth_headers, sub)
    assert response.status_code == 200, response.text
    assert response.json() == {"outcome": "ok", "statusCode": 200, "errorClass": ""}
    assert state_of(sub) == ("active", True)
    [request] = receiver.received
    Webhook(f"whsec_{secret}").verify(request.body, request.headers)
    assert request.headers["content-type"] == "application/cloudevents+json"


def test_failure_is_200_with_a_verdict_and_degrades_an_active_one(client, auth_headers, tenant,
                                                                  receiver: Receiver) -> None:  # noqa: ANN001
    """R-pingSubscription-04, R-X-STATE-04/07/08/09: failed probe → 200 failed; active → degraded → active."""
    receiver.actions.extend([Reply(503), Reply(503)])  # type: ignore[attr-defined]
    pending, _ = insert_subscription(libpq_url(), tenant, hook(receiver), state="pending_verification")
    active, _ = insert_subscription(libpq_url(), tenant, hook(receiver))
    body = ping(client, auth_headers, pending).json()
    assert body == {"outcome": "failed", "statusCode": 503, "errorClass": "http_5xx",
                    "detail": "endpoint answered HTTP 503"}
    assert state_of(pending) == ("pending_verification", True)
    assert ping(client, auth_headers, active).json()["outcome"] == "failed"
    assert state_of(active) == ("degraded", True)
    assert ping(client, auth_headers, active).json()["outcome"] == "ok"
    assert state_of(active) == ("active", True)


def test_blocked_endpoint_has_status_0(client, auth_headers, tenant, receiver: Receiver) -> None:  # noqa: ANN001
    sub, _ = insert_subscription(libpq_url(), tenant, f"https://private.example.test:{receiver.port}/h")
    body = ping(client, auth_headers, sub).json()
    assert (body["outcome"], body["statusCode"], body["errorClass"]) == ("failed", 0, "endpoint_blocked")
    assert body["detail"]


def test_ping_never_changes_enabled(client, auth_headers, tenant, receiver: Receiver) -> None:  # noqa: ANN001
    """R-pingSubscription-07, R-X-STATE-05."""
    sub, _ = insert_subscription(libpq_url(), tenant, hook(receiver), state="degraded", enabled=False)
    assert ping(client, auth_headers, sub).json()["outcome"] == "ok"
    assert state_of(sub) == ("active", False)


def test_success_releases_held_jobs(client, auth_headers, tenant, receiver: Receiver) -> None:  # noqa: ANN001
    url = libpq_url()
    sub, _ = insert_subscription(url, tenant, hook(receiver), state="pending_verification")
    insert_events(url, tenant, [sub], 2)
    sql(url, "UPDATE delivery_jobs SET next_attempt_at = now() + interval '1 hour' WHERE subscription_id = %s", (sub,))
    assert ping(client, auth_headers, sub).json()["outcome"] == "ok"
    assert sql(url, "SELECT count(*) FROM delivery_jobs WHERE subscription_id = %s AND next_attempt_at <= now()",
               (sub,)) == [(2,)]


@pytest.mark.parametrize("kind", ["sqs", "rabbitmq", "eventbridge", "pull"])
def test_non_webhook_is_unsupported(client, auth_headers, tenant, kind: str) -> None:  # noqa: ANN001
    """R-pingSubscription-06 (and `pull`, which has no probe either)."""
    sub, _ = insert_subscription(libpq_url(), tenant, "orders/created", sink_kind=kind)
    response = ping(client, auth_headers, sub)
    assert response.status_code == 422 and response.json()["code"] == "probe_unsupported_for_sink_kind"


def test_uniform_404(client, auth_headers, make_token, tenant, receiver: Receiver) -> None:  # noqa: ANN001
    """R-pingSubscription-08: absent, malformed, deleted and another tenant's ids all answer not_found."""
    deleted, _ = insert_subscription(libpq_url(), tenant, hook(receiver), deleted=True)
    foreign, _ = insert_subscription(libpq_url(), f"other-{tenant}", hook(receiver))
    for sub in (uuid.uuid4(), "not-a-uuid", deleted, foreign):
        response = ping(client, auth_headers, sub)
        assert response.status_code == 404 and response.json()["code"] == "not_found"
    assert receiver.received == []
    assert state_of(foreign) == ("active", True)


def test_needs_the_create_permission(client, make_token, tenant, receiver: Receiver) -> None:  # noqa: ANN001
    """R-pingSubscription-01: a caller without subscriptions:post gets 403 AUT-1020."""
    sub, _ = insert_subscription(libpq_url(), tenant, hook(receiver), state="pending_verification")
    token = make_token(permissions=["subscriptions:get"])
    response = ping(client, {"Authorization": f"Bearer {token}"}, sub)
    assert response.status_code == 403 and response.json()["code"] == "AUT-1020"
    assert receiver.received == []


def test_the_ping_probe_carries_the_static_headers(client, auth_headers, tenant, receiver: Receiver) -> None:  # noqa: ANN001
    """N54, N67: a receiver that demands an API key gets it on the probe too (so verification can succeed),
    the header set through PUT …/delivery-options."""
    sub, (secret,) = insert_subscription(libpq_url(), tenant, hook(receiver), state="pending_verification")
    options = {"headers": [{"name": "Authorization", "value": "Bearer receiver-key", "secret": True}]}
    put = client.put(f"/v1/subscriptions/{sub}/delivery-options", json=options,
                     headers={**auth_headers, "X-Idempotency": uuid.uuid4().hex})
    assert put.status_code == 200, put.text
    assert ping(client, auth_headers, sub).json()["outcome"] == "ok"
    [request] = receiver.received
    assert request.headers["authorization"] == "Bearer receiver-key"
    Webhook(f"whsec_{secret}").verify(request.body, request.headers)

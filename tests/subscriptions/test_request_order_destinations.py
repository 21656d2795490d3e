"""D1's order of checks on the destination and health routes, through HTTP only.

Ping, verify, the credential PUT, the delegated grant, the setup artifacts and the delivery health:
authentication (401) → authorization (403, 503 AUT-0033, 504 AUT-1021) → rate limit (429, the two
metered reads) → X-Idempotency presence (400 missing_idempotency_key, the grant only; ping, verify
and the credential PUT ignore it, D2) → body parsing (400 bad_request) → body validation (422
validation_error) → the operation (404 for an id that is not the caller's, then the kind's answer).
Each row breaks everything from its own stage on, so only the first failing stage may answer.

Rules: R-X-AUTH-01/02/03/04, R-X-RATE-01/02, R-X-IDEM-01/02/09, R-X-PROB-01/02.
"""

from __future__ import annotations

import json

import pytest

from tests.subscriptions.conftest import problem
from tests.subscriptions.test_request_order import MALFORMED, Route, decision_service, send  # noqa: F401

ABSENT = "0190a1b2-c3d4-7e5f-8a9b-0c1d2e3f4a5b"  # a well-formed UUIDv7 no subscription has
ROUTES = [
    Route("ping", "POST", "/v1/subscriptions/{id}/ping", False, False),
    Route("verify", "POST", "/v1/subscriptions/{id}/verify", False, False),
    Route("credential", "PUT", "/v1/subscriptions/{id}/credential", False, True, {"sinkConfig": 5}, ("sinkConfig",)),
    Route("grant", "PUT", "/v1/subscriptions/{id}/delegated-grant", True, True, {"roleArn": "x", "extra": 1},
          ("extra",)),
    Route("setup-artifacts", "GET", "/v1/subscriptions/{id}/setup-artifacts", False, False),
    Route("health", "GET", "/v1/subscriptions/{id}/health", False, False),
]
ROUTE_IDS = [route.name for route in ROUTES]
METERED = [route for route in ROUTES if route.method == "GET"]
BODIES = [route for route in ROUTES if route.has_body]
NO_KEY_NEEDED = [route for route in ROUTES if route.method == "POST" or route.name == "credential"]


@pytest.fixture
def pull_id(api) -> str:
    return api.created()["subscription"]["id"]


@pytest.mark.parametrize("route", ROUTES, ids=ROUTE_IDS)
@pytest.mark.parametrize("token_kind, code", [("missing", "AUT-0006"), ("garbage", "AUT-0007"),
                                              ("no-tenant", "unauthorized")])
def test_authentication_comes_first(api, make_token, route, token_kind, code):
    """No usable token, no key, a broken body, an absent id: 401 with the token's code."""
    token = {"missing": None, "garbage": "not.a.jwt", "no-tenant": make_token(tenant_id=None)}[token_kind]
    problem(send(api.client, route, ABSENT, token=token, key=False), 401, code)


@pytest.mark.parametrize("route", ROUTES, ids=ROUTE_IDS)
def test_authorization_comes_before_rate_limit_key_body_and_id(api, make_token, route, override_settings):
    """A token without the permission: 403 AUT-1020, even with the allowance spent and an absent id."""
    override_settings(rate_limit_reads=1)
    api.client.get("/v1/catalog", headers=api.headers(None))  # spends the tenant's allowance
    refused = problem(send(api.client, route, ABSENT, token=make_token(permissions=["catalog:get"]), key=False),
                      403, "AUT-1020")
    assert "subscriptions:" in refused["detail"]


@pytest.mark.parametrize("route", ROUTES, ids=ROUTE_IDS)
@pytest.mark.parametrize("mode, status, code", [("down", 503, "AUT-0033"), ("slow", 504, "AUT-1021")])
def test_decision_service_failures_come_before_key_body_and_id(api, decision_service, route, mode, status,  # noqa: F811
                                                               code):
    """R-X-AUTH-04: the decision service down → 503 AUT-0033; too slow → 504 AUT-1021; never a 400/404/422."""
    decision_service(mode)
    problem(send(api.client, route, ABSENT, token=api.token, key=False), status, code)


@pytest.mark.parametrize("route", METERED, ids=[route.name for route in METERED])
def test_rate_limit_comes_before_the_id(api, route, override_settings):
    """R-X-RATE-01/02: with the allowance spent, a metered read of an absent id answers 429, not 404."""
    override_settings(rate_limit_reads=1)
    api.client.get("/v1/catalog", headers=api.headers(None))
    response = send(api.client, route, ABSENT, token=api.token, key=False, body=None)
    problem(response, 429, "rate_limited")
    assert response.headers["X-RateLimit-Remaining"] == "0"


def test_grant_missing_key_comes_before_the_body(api):
    """R-X-IDEM-01/02: the grant without X-Idempotency and with a broken body → 400 missing_idempotency_key."""
    grant = next(route for route in ROUTES if route.name == "grant")
    problem(send(api.client, grant, ABSENT, token=api.token, key=False), 400, "missing_idempotency_key")


@pytest.mark.parametrize("route", NO_KEY_NEEDED, ids=[route.name for route in NO_KEY_NEEDED])
def test_routes_that_need_no_key_never_ask_for_one(api, route):
    """D2, R-X-IDEM-09: ping, verify and the credential PUT go past the key stage without one (404 here)."""
    body = b'{"sinkConfig": {"uri": "amqp://u:p@localhost/"}}' if route.has_body else None
    problem(send(api.client, route, ABSENT, token=api.token, key=False, body=body), 404, "not_found")


@pytest.mark.parametrize("route", BODIES, ids=[route.name for route in BODIES])
@pytest.mark.parametrize("body, content_type", [
    (MALFORMED, "application/json"), (b"[1, 2", "application/json"), (b'{"sinkConfig": {}}', "text/plain"),
], ids=["malformed", "truncated", "text-plain"])
def test_body_parsing_comes_before_the_id(api, route, body, content_type):
    """A body that is not JSON on an absent id: 400 bad_request, not 404."""
    problem(send(api.client, route, ABSENT, token=api.token, key=True, body=body, content_type=content_type),
            400, "bad_request")


@pytest.mark.parametrize("route", BODIES, ids=[route.name for route in BODIES])
def test_body_validation_comes_before_the_id(api, route):
    """A JSON body that breaks the schema on an absent id: 422 validation_error naming the field, not 404."""
    body = json.dumps(route.invalid_body).encode()
    refused = problem(send(api.client, route, ABSENT, token=api.token, key=True, body=body), 422,
                      "validation_error")
    assert [error["location"] for error in refused["errors"]][:len(route.invalid_fields)] == list(route.invalid_fields)


@pytest.mark.parametrize("route", ROUTES, ids=ROUTE_IDS)
def test_an_absent_id_is_the_operations_404(api, route):
    """Every earlier stage passed: an id that is not the caller's is the uniform 404."""
    body = {"credential": b'{"sinkConfig": {"uri": "amqp://u:p@localhost/"}}',
            "grant": b'{"roleArn": "arn:aws:iam::123456789012:role/hub", "region": "us-east-1", '
                     b'"destination": "https://sqs.us-east-1.amazonaws.com/123456789012/q"}'}.get(route.name)
    problem(send(api.client, route, ABSENT, token=api.token, key=route.mutation, body=body), 404, "not_found")


@pytest.mark.parametrize("route, status, code", [
    ("ping", 422, "probe_unsupported_for_sink_kind"), ("verify", 422, "probe_unsupported_for_sink_kind"),
    ("credential", 422, "validation_error"),
    ("grant", 422, "validation_error"), ("setup-artifacts", 422, "validation_error"), ("health", 200, None),
])
def test_a_live_pull_subscription_reaches_the_kinds_answer(api, pull_id, route, status, code):
    """The control rows: with every stage passed, each route answers from its operation for a pull."""
    chosen = next(item for item in ROUTES if item.name == route)
    body = {"credential": b'{"sinkConfig": {"uri": "amqp://u:p@localhost/"}}',
            "grant": b'{"roleArn": "arn:aws:iam::123456789012:role/hub", "region": "us-east-1", '
                     b'"destination": "https://sqs.us-east-1.amazonaws.com/123456789012/q"}'}.get(route)
    response = send(api.client, chosen, pull_id, token=api.token, key=chosen.mutation, body=body)
    if code is None:
        assert response.status_code == status, response.text
    else:
        problem(response, status, code)

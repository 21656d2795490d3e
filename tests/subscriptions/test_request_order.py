"""The order of request checks on the real subscription routes, table-driven.

Authentication (401) → authorization (403, 503 AUT-0033, 504 AUT-1021) → rate limit (429, reads) →
X-Idempotency presence (400 missing_idempotency_key, mutations) → body parsing (400 bad_request) →
body and parameter validation (422 validation_error) → the operation. Each row breaks everything
from its own stage on, so only the first failing stage may answer.

Rules: R-X-AUTH-01/02/03/04, R-X-RATE-01/02, R-X-IDEM-01/02, R-X-PROB-01/02,
R-updateSubscriptionSchemaMajor-05, R-createSubscription-09.
"""

from __future__ import annotations

import json
import socket
import time
import uuid
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Any

import pytest

from tests.subscriptions.conftest import problem
from devkit.httpserver import json_reply, serve

MALFORMED = b'{"name": '
NOT_UTF8 = b'{"name": "\xff\xfe", "sink_kind": "pull"}'


@dataclass(frozen=True)
class Route:
    name: str
    method: str
    path: str  # "{id}" is replaced by a live subscription's id
    mutation: bool
    has_body: bool
    #: A well-formed JSON body that breaks the schema, and the fields its 422 must name.
    invalid_body: dict[str, Any] | None = None
    invalid_fields: tuple[str, ...] = ()
    #: A query that the hub's validation refuses (reads only).
    invalid_query: dict[str, str] | None = None


ROUTES = [
    Route("create", "POST", "/v1/subscriptions", True, True, {"sink_kind": 7, "extra": 1}, ("name", "sink_kind")),
    Route("patch", "PATCH", "/v1/subscriptions/{id}", True, True, {"name": "x"}, ("schema_major", "name")),
    Route("rotate", "POST", "/v1/subscriptions/{id}/secret/rotate", True, False),
    Route("delete", "DELETE", "/v1/subscriptions/{id}", True, False),
    Route("list", "GET", "/v1/subscriptions", False, False, invalid_query={"enabled": "maybe"}),
    Route("get", "GET", "/v1/subscriptions/{id}", False, False),
    Route("reveal", "GET", "/v1/subscriptions/{id}/endpoint", False, False),
    Route("options-get", "GET", "/v1/subscriptions/{id}/delivery-options", False, False),
    Route("options-put", "PUT", "/v1/subscriptions/{id}/delivery-options", True, True, {"filter": 1, "extra": 1},
          ("filter", "extra")),
]
ROUTE_IDS = [route.name for route in ROUTES]


@pytest.fixture
def live_id(api) -> str:
    return api.created()["subscription"]["id"]


def send(client, route: Route, sub_id: str, *, token: str | None, key: bool, body: bytes | None = MALFORMED,
         content_type: str = "application/json", query: dict[str, str] | None = None):
    """Call ``route``; by default everything after the stage under test is broken too."""
    headers = {"content-type": content_type}
    if token is not None:
        headers["Authorization"] = f"Bearer {token}"
    if key:
        headers["X-Idempotency"] = f"k-{uuid.uuid4().hex}"
    params = query if query is not None else (route.invalid_query or {})
    return client.request(route.method, route.path.replace("{id}", sub_id), headers=headers,
                          content=body if body is not None else b"", params=params)


@pytest.mark.parametrize("route", ROUTES, ids=ROUTE_IDS)
@pytest.mark.parametrize("token_kind, code", [("missing", "AUT-0006"), ("garbage", "AUT-0007"),
                                              ("expired", "AUT-0007"), ("no-tenant", "unauthorized")])
def test_authentication_comes_first(api, make_token, live_id, route, token_kind, code):
    """No usable token, no key, a broken body and a broken query: 401 with the token's code."""
    token = {"missing": None, "garbage": "not.a.jwt", "expired": make_token(ttl_seconds=-60),
             "no-tenant": make_token(tenant_id=None)}[token_kind]
    problem(send(api.client, route, live_id, token=token, key=False), 401, code)


@pytest.mark.parametrize("route", ROUTES, ids=ROUTE_IDS)
def test_authorization_comes_before_rate_limit_key_and_body(api, make_token, live_id, route, override_settings):
    """A token without the permission: 403 AUT-1020 (naming the permission) even with the allowance spent."""
    override_settings(rate_limit_reads=1)
    other = make_token()
    api.client.get("/v1/catalog", headers={"Authorization": f"Bearer {other}"})  # spends the tenant's allowance
    refused = problem(send(api.client, route, live_id, token=make_token(permissions=["catalog:get"]), key=False),
                      403, "AUT-1020")
    assert "subscriptions:" in refused["detail"]


def _closed_port_url() -> str:
    """A loopback URL where nothing listens (the decision service is down)."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    return f"http://127.0.0.1:{port}/decide"


@pytest.fixture
def decision_service(override_settings) -> Iterator[Callable[[str], None]]:
    """Point the hub at a decision service that is down, does not decide, or does not answer in time."""
    def slow_or_undecided(method: str, path: str, body: bytes):
        if json.loads(body)["action"] and state["mode"] == "slow":
            time.sleep(1.0)
        return json_reply(500, {"error": "no decision"})

    state = {"mode": "undecided"}
    with serve(slow_or_undecided) as base:
        def choose(mode: str) -> None:
            state["mode"] = mode
            url = _closed_port_url() if mode == "down" else f"{base}/decide"
            override_settings(decision_service_url=url, decision_service_timeout_seconds=0.3)

        yield choose


@pytest.mark.parametrize("route", ROUTES, ids=ROUTE_IDS)
@pytest.mark.parametrize("mode, status, code", [("down", 503, "AUT-0033"), ("undecided", 503, "AUT-0033"),
                                                ("slow", 504, "AUT-1021")])
def test_decision_service_failures_come_before_key_and_body(api, live_id, decision_service, route, mode, status,
                                                            code):
    """R-X-AUTH-04: the decision service down or undecided → 503 AUT-0033 with Retry-After; too slow →
    504 AUT-1021; never a 400 or 422 for the missing key or the broken body."""
    decision_service(mode)
    response = send(api.client, route, live_id, token=api.token, key=False)
    problem(response, status, code)
    if status == 503:
        assert int(response.headers["Retry-After"]) >= 1


READS = [route for route in ROUTES if not route.mutation]


@pytest.mark.parametrize("route", READS, ids=[route.name for route in READS])
def test_rate_limit_comes_before_validation(api, live_id, route, override_settings):
    """R-X-RATE-01/02: with the allowance spent, a read with a broken query answers 429 with the headers."""
    override_settings(rate_limit_reads=1)
    api.client.get("/v1/catalog", headers=api.headers(None))  # the one request of the window
    response = send(api.client, route, live_id, token=api.token, key=False, body=None)
    problem(response, 429, "rate_limited")
    assert response.headers["X-RateLimit-Remaining"] == "0" and int(response.headers["Retry-After"]) >= 1


MUTATIONS = [route for route in ROUTES if route.mutation]
BODIES = [route for route in ROUTES if route.has_body]


@pytest.mark.parametrize("route", MUTATIONS, ids=[route.name for route in MUTATIONS])
def test_missing_key_comes_before_the_body(api, live_id, route):
    """R-X-IDEM-01/02: authorized, no X-Idempotency, a broken body → 400 missing_idempotency_key."""
    problem(send(api.client, route, live_id, token=api.token, key=False), 400, "missing_idempotency_key")


@pytest.mark.parametrize("route", BODIES, ids=[route.name for route in BODIES])
@pytest.mark.parametrize("body, content_type", [
    (MALFORMED, "application/json"), (NOT_UTF8, "application/json"), (b"[1, 2", "application/json"),
    (b'{"schema_major": 1}', "text/plain"), (b'{"schema_major": 1}', "application/x-www-form-urlencoded"),
    (b'{"schema_major": 1}', "application/json; charset=latin-1"),
], ids=["malformed", "not-utf8", "truncated", "text-plain", "form", "latin-1"])
def test_a_body_that_is_not_json_is_bad_request(api, live_id, route, body, content_type):
    """D1 body parsing: not JSON, not UTF-8 or the wrong content type → 400 bad_request, nothing written."""
    before = api.list().json()["subscriptions"]
    problem(send(api.client, route, live_id, token=api.token, key=True, body=body, content_type=content_type),
            400, "bad_request")
    assert api.list().json()["subscriptions"] == before


@pytest.mark.parametrize("route", BODIES, ids=[route.name for route in BODIES])
def test_a_json_body_that_breaks_the_schema_is_validation_error(api, live_id, route):
    """R-updateSubscriptionSchemaMajor-05, R-createSubscription-09: 422 validation_error naming each field."""
    body = json.dumps(route.invalid_body).encode()
    refused = problem(send(api.client, route, live_id, token=api.token, key=True, body=body), 422,
                      "validation_error")
    assert [error["location"] for error in refused["errors"]][:len(route.invalid_fields)] == list(route.invalid_fields)


def test_list_query_is_validated_after_the_gates(api):
    """D1: a bad query value on an admitted read is 422 validation_error naming the parameter."""
    refused = problem(api.list(enabled="maybe"), 422, "validation_error")
    assert refused["errors"][0]["location"] == "enabled"


@pytest.mark.parametrize("route", ROUTES, ids=ROUTE_IDS)
def test_a_clean_request_reaches_the_operation(api, live_id, route):
    """With every stage passed, each route answers from its operation (the table's control row)."""
    body = {"create": b'{"name": "order-ok", "sink_kind": "pull"}', "patch": b'{"schema_major": 2}',
            "options-put": b'{"filter": {"type": "a.b"}}'}.get(route.name, None)
    response = send(api.client, route, live_id, token=api.token, key=route.mutation, body=body, query={})
    expected = {"create": 201, "rotate": 422, "delete": 204}.get(route.name, 200)  # a pull has no secret to rotate
    assert response.status_code == expected, response.text

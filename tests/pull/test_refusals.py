"""GET /v1/events refusals: 400, 401, 403, the uniform 404, 429, 503 (R-pullEvents-01/02/03/15/16)."""

from __future__ import annotations

import json
import time
import uuid

from tests.pull.conftest import cursor_of, event, store, store_many
from tests.subscriptions.conftest import problem
from devkit.httpserver import json_reply, serve

PARTY = "UGFydHktRA=="


def test_missing_subscription_id_is_bad_request(inbox):
    """R-pullEvents-02: no subscription_id (or an empty one) → 400 bad_request."""
    problem(inbox.read(None), 400, "bad_request")
    problem(inbox.read(""), 400, "bad_request")


def test_authentication_comes_first(inbox):
    """R-pullEvents-01, N1: no token is 401 before the missing parameter is looked at."""
    problem(inbox.client.get("/v1/events"), 401, "AUT-0006")
    problem(inbox.client.get("/v1/events", headers={"Authorization": "Bearer nope"}), 401, "AUT-0007")


def test_events_get_permission_is_required(inbox, make_token):
    """R-pullEvents-01: a credential without events:get → 403 AUT-1020."""
    sub = inbox.subscribe()
    token = make_token(permissions=["subscriptions:get"])
    problem(inbox.read(sub, token=token), 403, "AUT-1020")


def _comparable(response) -> tuple[int, dict]:
    body = response.json()
    body.pop("instance", None)
    return response.status_code, body


def test_uniform_not_found(inbox, tenant, make_token, client):
    """R-pullEvents-03, R-X-ORACLE-03: absent, malformed, foreign, deleted and non-pull ids are one 404."""
    store_many(tenant, 1)
    foreign = inbox.subscribe(token=make_token(tenant_id=f"t-{uuid.uuid4().hex[:12]}"))
    deleted = inbox.subscribe()
    assert client.delete(f"/v1/subscriptions/{deleted}",
                         headers={**inbox.auth(), "X-Idempotency": uuid.uuid4().hex}).status_code == 204
    webhook = inbox.subscribe(sink_kind="webhook", endpoint="https://93.184.215.14/hooks/x")
    other_party = inbox.subscribe(token=make_token(delegated_scope=PARTY))
    party_token = make_token(delegated_scope="UGFydHktRQ==")
    answers = [inbox.read(str(uuid.uuid4())), inbox.read("not-a-uuid"), inbox.read(foreign), inbox.read(deleted),
               inbox.read(webhook), inbox.read(other_party, token=party_token)]
    for response in answers:
        problem(response, 404, "not_found")
    assert len({json.dumps(_comparable(response), sort_keys=True) for response in answers}) == 1
    assert cursor_of(foreign) is None and cursor_of(webhook) is None


def test_own_rate_limit_allowance(inbox, override_settings):
    """R-pullEvents-15, R-X-RATE-03/04: its own allowance (B); headers on 200; 429 when spent; reads unaffected."""
    override_settings(rate_limit_events=2, rate_limit_reads=50)
    sub = inbox.subscribe()
    first = inbox.read(sub)
    assert first.status_code == 200
    assert first.headers["X-RateLimit-Limit"] == "2" and first.headers["X-RateLimit-Remaining"] == "1"
    assert int(first.headers["X-RateLimit-Reset"]) > time.time()
    assert inbox.read(sub).status_code == 200
    refused = inbox.read(sub)
    problem(refused, 429, "rate_limited")
    assert refused.headers["X-RateLimit-Remaining"] == "0" and int(refused.headers["Retry-After"]) >= 1
    listed = inbox.client.get("/v1/subscriptions", headers=inbox.auth())
    assert listed.status_code == 200 and listed.headers["X-RateLimit-Limit"] == "50"


def test_rate_limit_counts_before_the_missing_parameter(inbox, override_settings):
    """N1: the rate limit comes before parameter validation, so a 400 still spends the allowance."""
    override_settings(rate_limit_events=1)
    problem(inbox.read(None), 400, "bad_request")
    problem(inbox.read(None), 429, "rate_limited")


def test_payload_carries_no_secret(inbox, tenant, client):
    """R-X-SEC-06, R-pullEvents-14: the read returns the producer's data only, never a hub secret."""
    created = client.post("/v1/subscriptions", headers={**inbox.auth(), "X-Idempotency": uuid.uuid4().hex},
                          json={"name": "hook", "sink_kind": "webhook", "endpoint": "https://93.184.215.14/h"})
    secret = created.json()["signingSecret"]
    sub = inbox.subscribe()
    store(event(tenant, data={"order": 1}))
    response = inbox.read(sub)
    assert response.json()["events"][0]["payload"] == {"order": 1}
    assert secret not in response.text and "tenantid" not in response.text


def _decision_service(party_answer):
    """A decision service that allows events:get and answers the party check with ``party_answer``."""
    asked: list[dict] = []

    def handler(method, path, body):
        request = json.loads(body)
        asked.append(request)
        if request["resource"] == "delegated_party":
            return party_answer(request)
        return json_reply(200, {"allow": True})

    return serve(handler), asked


def test_delegated_party_unconfirmed(inbox, make_token, override_settings):
    """R-pullEvents-16, N16: the decision service cannot confirm the party → 503 with Retry-After."""
    token = make_token(delegated_scope=PARTY)
    sub = inbox.subscribe(token=token)
    answers = {"undecided": lambda r: json_reply(500, {}), "refused": lambda r: json_reply(200, {"allow": False}),
               "garbled": lambda r: json_reply(200, {"allow": "yes"})}
    for name, answer in answers.items():
        server, asked = _decision_service(answer)
        with server as base:
            override_settings(decision_service_url=f"{base}/decide")
            response = inbox.read(sub, token=token)
        problem(response, 503, "delegated_party_unconfirmed")
        assert int(response.headers["Retry-After"]) >= 1, name
        party_checks = [request for request in asked if request["resource"] == "delegated_party"]
        assert party_checks == [{"subject": PARTY, "tenant": party_checks[0]["tenant"],
                                 "resource": "delegated_party", "action": "confirm"}]
    assert cursor_of(sub) is None  # nothing was read


def test_delegated_party_timeout_is_unconfirmed(inbox, make_token, override_settings):
    """R-pullEvents-16: a party check that times out is the same transient 503."""
    token = make_token(delegated_scope=PARTY)
    sub = inbox.subscribe(token=token)

    def slow(request):
        time.sleep(1.0)
        return json_reply(200, {"allow": True})

    server, _ = _decision_service(slow)
    with server as base:
        override_settings(decision_service_url=f"{base}/decide", decision_service_timeout_seconds=0.3)
        problem(inbox.read(sub, token=token), 503, "delegated_party_unconfirmed")


def test_confirmed_party_and_undelegated_subscriptions_read(inbox, tenant, make_token, override_settings):
    """N16: a confirmed party reads; a subscription with no delegated party asks no party question."""
    token = make_token(delegated_scope=PARTY)
    delegated, plain = inbox.subscribe(token=token), inbox.subscribe()
    seqs = store(event(tenant, scope=PARTY))
    server, asked = _decision_service(lambda r: json_reply(200, {"allow": True}))
    with server as base:
        override_settings(decision_service_url=f"{base}/decide")
        assert inbox.seqs(delegated, token=token) == seqs
        asked.clear()
        assert inbox.seqs(plain) == seqs
    assert [request["resource"] for request in asked] == ["events"]


def test_no_decision_service_means_no_party_check(inbox, tenant, make_token):
    """N16: without a decision service configured the delegated subscription reads directly."""
    token = make_token(delegated_scope=PARTY)
    sub = inbox.subscribe(token=token)
    seqs = store(event(tenant, scope=PARTY))
    assert inbox.seqs(sub, token=token) == seqs

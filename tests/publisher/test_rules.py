"""The publisher's rules on both protocols (seed 000, extensions E2, E3, E5; N33): auth and permission
per event type, validation, a partly failing batch whose successful events alone are stored and
delivered to a webhook subscription, dedup of the same event, and tenant isolation."""

from __future__ import annotations

import json
import uuid

import grpc
import pytest

from hub.auth.tokens import mint_token
from hub.publisher.access import PUBLISH_PERMISSION, PUBLISH_TYPES_CLAIM
from tests.deliver.conftest import insert_subscription, sql
from tests.publisher.conftest import (
    HOOK_HOST,
    PublisherHub,
    bearer,
    metadata,
    pb,
    proto_event,
    publisher_token,
    unique_type,
)
from devkit.poll import wait_until

OCCURRED = "2024-10-16T14:30:00Z"


def event(event_type: str, **message: object) -> dict:
    return {"event_type": event_type, "message": dict(message), "occurred_at": OCCURRED}


# -- authentication and permission ------------------------------------------------------------------------
@pytest.mark.parametrize("headers", [{}, {"Authorization": "Bearer not-a-jwt"}, {"Authorization": "Basic abc"}])
def test_rest_without_a_trusted_token_is_401(rest, headers: dict) -> None:  # noqa: ANN001
    for path, body in (("/api/v1beta/events", {"event": event("a.b")}), ("/api/v1beta/events/batch", {"events": []})):
        response = rest.post(path, json=body, headers=headers)
        assert response.status_code == 401 and response.headers["content-type"] == "application/problem+json"


def test_rest_permission_and_event_type_are_403(publisher_hub: PublisherHub, rest, tenant: str) -> None:  # noqa: ANN001
    no_permission = mint_token(tenant=tenant, permissions=["events:get"], claims={"publish_event_types": ["*"]})
    response = rest.post("/api/v1beta/events", json={"event": event("a.b")}, headers=bearer(no_permission))
    assert response.status_code == 403 and "event-publisher-service:publish" in response.json()["detail"]
    listed_other = publisher_token(tenant, ["myapp.other"])
    response = rest.post("/api/v1beta/events", json={"event": event("myapp.secret")}, headers=bearer(listed_other))
    assert response.status_code == 403 and response.json()["code"] == "AUT-1020"
    no_claim = mint_token(tenant=tenant, permissions=["event-publisher-service:publish"])
    response = rest.post("/api/v1beta/events", json={"event": event("myapp.any")}, headers=bearer(no_claim))
    assert response.status_code == 403
    assert publisher_hub.stored(tenant) == []


def test_grpc_status_codes(publisher_hub: PublisherHub, stub, tenant: str) -> None:  # noqa: ANN001
    good = proto_event("myapp.user.created", {"a": "1"}, OCCURRED)
    cases = [
        (None, good, grpc.StatusCode.UNAUTHENTICATED),
        (metadata("not-a-jwt"), good, grpc.StatusCode.UNAUTHENTICATED),
        (metadata(mint_token(tenant=tenant, permissions=[])), good, grpc.StatusCode.PERMISSION_DENIED),
        (metadata(publisher_token(tenant, ["myapp.other"])), good, grpc.StatusCode.PERMISSION_DENIED),
        (metadata(publisher_token(tenant)), pb.Event(event_type="", message=good.message,
                                                     occurred_at=good.occurred_at), grpc.StatusCode.INVALID_ARGUMENT),
        (metadata(publisher_token(tenant)), pb.Event(event_type="x.y", occurred_at=good.occurred_at),
         grpc.StatusCode.INVALID_ARGUMENT),
        (metadata(publisher_token(tenant)), pb.Event(event_type="x.y", message=good.message),
         grpc.StatusCode.INVALID_ARGUMENT),
    ]
    for md, message, code in cases:
        with pytest.raises(grpc.RpcError) as raised:
            stub.PublishEvent(pb.PublishEventRequest(event=message), metadata=md)
        assert raised.value.code() == code, (message, raised.value.details())
    with pytest.raises(grpc.RpcError) as raised:
        stub.BatchPublishEvents(pb.BatchPublishEventsRequest(events=[good]), metadata=metadata("x"))
    assert raised.value.code() == grpc.StatusCode.UNAUTHENTICATED
    assert publisher_hub.stored(tenant) == []


@pytest.mark.parametrize("types", [5, {"ok": 1}, ["ok", 3]])
def test_a_malformed_publish_event_types_claim_is_an_invalid_token(  # noqa: ANN001
        publisher_hub: PublisherHub, rest, stub, tenant: str, types: object) -> None:
    token = mint_token(tenant=tenant, permissions=[PUBLISH_PERMISSION], claims={PUBLISH_TYPES_CLAIM: types})
    response = rest.post("/api/v1beta/events", json={"event": event("ok")}, headers=bearer(token))
    assert response.status_code == 401 and response.headers["content-type"] == "application/problem+json"
    assert response.json()["code"] == "AUT-0007" and PUBLISH_TYPES_CLAIM in response.json()["detail"]
    with pytest.raises(grpc.RpcError) as raised:
        stub.PublishEvent(pb.PublishEventRequest(event=proto_event("ok", {"a": "1"}, OCCURRED)),
                          metadata=metadata(token))
    assert raised.value.code() == grpc.StatusCode.UNAUTHENTICATED
    assert ("hub-error-code", "AUT-0007") in raised.value.trailing_metadata()
    assert publisher_hub.stored(tenant) == []


# -- validation --------------------------------------------------------------------------------------------
@pytest.mark.parametrize(("body", "status"), [
    (b"{not json", 400), (b"[1, 2]", 400), (b"", 400),
    (json.dumps({}).encode(), 422),
    (json.dumps({"event": "x"}).encode(), 422),
    (json.dumps({"event": {"event_type": "", "message": {}, "occurred_at": OCCURRED}}).encode(), 422),
    (json.dumps({"event": {"event_type": "a.b", "message": "text", "occurred_at": OCCURRED}}).encode(), 422),
    (json.dumps({"event": {"event_type": "a.b", "message": {}, "occurred_at": "yesterday"}}).encode(), 422),
    (json.dumps({"event": {"event_type": "a.b", "message": {}, "occurred_at": "2024-10-16T14:30:00"}}).encode(), 422),
    (json.dumps({"event": {**event("a.b"), "resource": {"resource_id": 5}}}).encode(), 422),
])
def test_rest_single_publish_validation(rest, tenant: str, body: bytes, status: int) -> None:  # noqa: ANN001
    response = rest.post("/api/v1beta/events", content=body, headers={
        **bearer(publisher_token(tenant)), "Content-Type": "application/json"})
    assert response.status_code == status, response.text


def test_rest_batch_body_validation(rest, tenant: str, override_settings) -> None:  # noqa: ANN001
    headers = bearer(publisher_token(tenant))
    assert rest.post("/api/v1beta/events/batch", json={"events": {}}, headers=headers).status_code == 422
    assert rest.post("/api/v1beta/events/batch", json={}, headers=headers).status_code == 422
    too_many = {"events": [event("a.b", n=n) for n in range(1001)]}
    assert rest.post("/api/v1beta/events/batch", json=too_many, headers=headers).status_code == 422
    assert rest.post("/api/v1beta/events/batch", json={"events": []}, headers=headers).json() == {"results": []}


# -- a partly failing batch, delivered ---------------------------------------------------------------------
def test_partly_failing_batch_stores_and_delivers_exactly_the_successes(  # noqa: ANN001
        publisher_hub: PublisherHub, rest, tenant: str) -> None:
    allowed, secret = unique_type("allowed"), unique_type("secret")
    endpoint = f"https://{HOOK_HOST}:{publisher_hub.receiver.port}/{tenant}"
    sub, _ = insert_subscription(publisher_hub.db, tenant, endpoint)
    sql(publisher_hub.db, "UPDATE subscription_versions SET version = version + 1 WHERE id = 1")
    events = [event(allowed, n=0), event(secret, n=1), {"event_type": allowed, "message": [1]},
              event(allowed, n=3), {"message": {}}, "not an object", event(allowed, n=6)]
    response = rest.post("/api/v1beta/events/batch", json={"events": events},
                         headers=bearer(publisher_token(tenant, [allowed])))
    assert response.status_code == 200
    results = response.json()["results"]
    assert [r["event"] for r in results] == events
    assert [r["success"] for r in results] == [True, False, False, True, False, False, True]
    assert results[1]["failure_reason"].startswith("Permission denied")
    assert all(results[i]["failure_reason"].startswith("Invalid event") for i in (2, 4, 5))
    assert all("failure_reason" not in results[i] for i in (0, 3, 6))
    rows = publisher_hub.wait_stored(tenant, 3)
    assert sorted(row["data"]["n"] for row in rows) == [0, 3, 6]
    delivered = lambda: [r for r in publisher_hub.receiver.received if r.path == f"/{tenant}"]  # noqa: E731
    wait_until(lambda: len(delivered()) >= 3, 60, 0.2, "three deliveries")
    assert sorted(json.loads(r.body)["data"]["n"] for r in delivered()) == [0, 3, 6]
    assert sql(publisher_hub.db, "SELECT count(*) FROM delivery_jobs WHERE subscription_id = %s", (sub,)) == [(3,)]


def test_grpc_batch_fails_each_event_alone(publisher_hub: PublisherHub, stub, tenant: str) -> None:  # noqa: ANN001
    allowed = unique_type("allowed")
    events = [proto_event(allowed, {"n": "0"}, OCCURRED), proto_event("other.type", {"n": "1"}, OCCURRED),
              pb.Event(event_type=allowed), proto_event(allowed, {"n": "3"}, OCCURRED)]
    response = stub.BatchPublishEvents(pb.BatchPublishEventsRequest(events=events),
                                       metadata=metadata(publisher_token(tenant, [allowed])))
    assert [r.success for r in response.results] == [True, False, False, True]
    assert [r.event for r in response.results] == events
    assert response.results[1].failure_reason.startswith("Permission denied")
    assert response.results[2].failure_reason.startswith("Invalid event")
    rows = publisher_hub.wait_stored(tenant, 2)
    assert sorted(row["data"]["n"] for row in rows) == ["0", "3"]


# -- dedup and isolation -----------------------------------------------------------------------------------
def test_the_same_event_published_twice_is_stored_once(publisher_hub: PublisherHub, rest, stub,  # noqa: ANN001
                                                       tenant: str) -> None:
    token = publisher_token(tenant)
    same = {"event_type": "myapp.user.created", "message": {"user_id": "42"}, "occurred_at": OCCURRED,
            "resource": {"resource_id": "/users/42"}}
    for _ in range(2):
        assert rest.post("/api/v1beta/events", json={"event": same}, headers=bearer(token)).json()["result"]["success"]
    response = stub.PublishEvent(pb.PublishEventRequest(event=proto_event(
        "myapp.user.created", {"user_id": "42"}, OCCURRED, "/users/42")), metadata=metadata(token))
    assert response.result.success
    marker = {**same, "message": {"user_id": "43"}}
    assert rest.post("/api/v1beta/events", json={"event": marker}, headers=bearer(token)).json()["result"]["success"]
    rows = publisher_hub.wait_stored(tenant, 2)  # the marker lands after the duplicates would have
    assert sorted(row["data"]["user_id"] for row in rows) == ["42", "43"]


def test_the_tenant_is_the_tokens_only(publisher_hub: PublisherHub, rest, stub, tenant: str) -> None:  # noqa: ANN001
    other = f"t-{uuid.uuid4().hex[:12]}"
    forged = {**event("myapp.user.created", tenantid=other, tenant_id=other), "tenantid": other, "tenant_id": other}
    body = {"event": forged, "tenantid": other, "tenant_id": other}
    response = rest.post("/api/v1beta/events", json=body, headers={**bearer(publisher_token(tenant)),
                                                                    "X-Tenant-Id": other})
    assert response.json()["result"]["success"]
    stub.PublishEvent(pb.PublishEventRequest(event=proto_event("myapp.user.created", {"tenantid": other}, OCCURRED)),
                      metadata=[*metadata(publisher_token(tenant)), ("x-tenant-id", other)])
    rows = publisher_hub.wait_stored(tenant, 2)
    assert {row["attributes"]["tenantid"] for row in rows} == {tenant}
    # The same event from the other tenant is that tenant's own event, not a duplicate of this one.
    response = rest.post("/api/v1beta/events", json=body, headers=bearer(publisher_token(other)))
    assert response.json()["result"]["success"]
    [theirs] = publisher_hub.wait_stored(other, 1)
    assert theirs["attributes"]["tenantid"] == other
    assert len(publisher_hub.stored(tenant)) == 2

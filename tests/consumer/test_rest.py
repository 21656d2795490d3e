"""The consumer REST API (seed 000) against real processes: the SSE streams (connected, filtered events,
reconnect within the grace, filter update, shared tokens, error events, keepalive) and the durable-queue
routes, with every status the seed names and tenancy (E2: another tenant's queue does not exist)."""

from __future__ import annotations

import time
from typing import Any

import httpx
import orjson
import pytest

from hub.auth.tokens import mint_token
from hub.consumer.access import CONSUME, CONSUME_TYPES_CLAIM, CREATE, DELETE, DURABLE_PERMISSIONS
from tests.consumer.conftest import GRACE_SECONDS, ConsumerHub, consumer_token, unique
from tests.consumer.sse_client import SSE
from devkit.live import live_api
from devkit.pg import free_port

STREAM, DURABLE_STREAM, QUEUES = "/api/v1beta/events/stream", "/api/v1beta/events/stream-durable", \
    "/api/v1beta/queues/durable"


def groups(*event_types: str, resource: str | None = None, kind: str = "eq") -> str:
    filters = [{"filter_type": kind, "resource_id": resource}] if resource else []
    return orjson.dumps([{"event_type": t, "filters": filters} for t in event_types]).decode()


def bearer(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


def connect(hub: ConsumerHub, token: str, path: str = STREAM, **kwargs: Any) -> tuple[SSE, str]:
    """An open stream and its reconnect token, its ``connected`` frame checked."""
    stream = SSE(hub.rest, path, token, **kwargs)
    assert stream.status == 200, stream.body
    assert stream.headers["content-type"].startswith("text/event-stream")
    first = stream.next()
    assert first.event == "connected" and first.id
    assert first.json() == {"message": "Connection established", "reconnect_token": first.id}
    return stream, first.id


def refused(hub: ConsumerHub, token: str | None, path: str = STREAM, **kwargs: Any) -> tuple[int, dict]:
    stream = SSE(hub.rest, path, token, **kwargs)
    assert stream.status != 200
    assert stream.headers["content-type"] == "application/problem+json"
    return stream.status, stream.json()


def create(hub: ConsumerHub, token: str, body: Any) -> httpx.Response:
    return httpx.post(f"{hub.rest}{QUEUES}", json=body, headers=bearer(token), timeout=30)


def test_connected_then_only_the_selected_events(consumer_hub: ConsumerHub, tenant: str) -> None:
    stream, token = connect(consumer_hub, consumer_token(tenant),
                            params={"filter_groups": groups("myapp.user.created", resource="/users/1")})
    with stream:
        consumer_hub.publish(tenant, "myapp.user.created", {"n": 0}, "/users/2")
        consumer_hub.publish(tenant, "myapp.other", {"n": 1}, "/users/1")
        consumer_hub.publish(tenant, "myapp.user.created", {"n": 2}, "/users/1")
        [frame] = stream.events(1)
        assert frame.id == token
        data = frame.json()
        assert (data["event_type"], data["message"]) == ("myapp.user.created", {"n": 2})
        assert data["principal_identity"] and data["occurred_at"].endswith("Z") and data["published_at"].endswith("Z")
        assert stream.quiet(1.5) == []


def test_reconnect_within_the_grace_keeps_the_queue_and_after_it_is_404(consumer_hub: ConsumerHub,
                                                                        tenant: str) -> None:
    token = consumer_token(tenant)
    stream, queue_token = connect(consumer_hub, token, params={"filter_groups": groups("t.a")})
    stream.close()
    consumer_hub.publish(tenant, "t.a", {"n": 1})
    time.sleep(1)
    again, same = connect(consumer_hub, token, headers={"Last-Event-ID": queue_token})
    with again:
        assert same == queue_token
        assert again.events(1)[0].json()["message"] == {"n": 1}
    legacy, same = connect(consumer_hub, token, params={"reconnect_token": queue_token})  # the deprecated carrier
    legacy.close()
    assert same == queue_token
    time.sleep(GRACE_SECONDS + 3)  # no attempt in between: each would attach a consumer and restart the grace
    stream = SSE(consumer_hub.rest, STREAM, token, headers={"Last-Event-ID": queue_token})
    stream.close()
    assert stream.status == 404 and stream.json()["code"] == "queue_not_found"


@pytest.mark.parametrize("bad", ["has space", "x" * 201, "tab\there", "ünïcode"])
def test_an_invalid_token_is_422_and_never_echoed(consumer_hub: ConsumerHub, tenant: str, bad: str) -> None:
    token = consumer_token(tenant)
    status, body = refused(consumer_hub, token, params={"reconnect_token": bad})
    assert status == 422 and body["errors"][0]["location"] == "reconnect_token"
    assert "printable ASCII" in body["detail"] and bad not in orjson.dumps(body).decode()
    if bad.isascii():  # a header value is ASCII on the wire
        status, body = refused(consumer_hub, token, headers={"Last-Event-ID": bad})
        assert status == 422 and body["errors"][0]["location"] == "Last-Event-ID"
        assert "printable ASCII" in body["detail"] and bad not in orjson.dumps(body).decode()


def test_stream_refusals(consumer_hub: ConsumerHub, tenant: str) -> None:
    token = consumer_token(tenant)
    assert refused(consumer_hub, None)[0] == 401
    status, body = refused(consumer_hub, token, params={"filter_groups": "[{not json"})
    assert status == 422 and body["errors"][0]["location"] == "filter_groups"
    status, body = refused(consumer_hub, token, params={"filter_groups": '[{"event_type":"a","filters":'
                                                                         '[{"filter_type":"regex"}]}]'})
    assert status == 422 and "filter_type" in body["detail"]
    assert refused(consumer_hub, token, headers={"Last-Event-ID": "nd-never-made"})[0] == 404


def test_token_alone_resumes_and_previous_filter_groups_updates(consumer_hub: ConsumerHub, tenant: str) -> None:
    token = consumer_token(tenant)
    stream, queue_token = connect(consumer_hub, token, params={"filter_groups": groups("t.a")})
    stream.close()
    resumed, _ = connect(consumer_hub, token, headers={"Last-Event-ID": queue_token},
                         params={"filter_groups": groups("t.b")})  # no previous_filter_groups: the old filters
    with resumed:
        consumer_hub.publish(tenant, "t.b", {"n": 1})
        consumer_hub.publish(tenant, "t.a", {"n": 2})
        assert [f.json()["message"] for f in resumed.events(1)] == [{"n": 2}]
        assert resumed.quiet(1) == []
    updated, _ = connect(consumer_hub, token, headers={"Last-Event-ID": queue_token},
                         params={"filter_groups": groups("t.b"), "previous_filter_groups": groups("t.a")})
    with updated:
        consumer_hub.publish(tenant, "t.a", {"n": 3})
        consumer_hub.publish(tenant, "t.b", {"n": 4})
        assert [f.json()["message"] for f in updated.events(1)] == [{"n": 4}]
        assert updated.quiet(1) == []


def test_two_clients_on_one_token_split_its_events(consumer_hub: ConsumerHub, tenant: str) -> None:
    token = consumer_token(tenant)
    first, queue_token = connect(consumer_hub, token)
    second, same = connect(consumer_hub, token, headers={"Last-Event-ID": queue_token})
    assert same == queue_token
    with first, second:
        for n in range(6):
            consumer_hub.publish(tenant, "t.split", {"n": n})
        seen: dict[str, list[int]] = {"first": [], "second": []}
        deadline = time.monotonic() + 30
        while sum(map(len, seen.values())) < 6 and time.monotonic() < deadline:
            for name, client in (("first", first), ("second", second)):
                seen[name] += [f.json()["message"]["n"] for f in client.quiet(0.3)]
        assert sorted(seen["first"] + seen["second"]) == list(range(6))
        assert seen["first"] and seen["second"]


def test_create_is_ensure_exists_with_the_seeds_statuses(consumer_hub: ConsumerHub, tenant: str) -> None:
    token, queue_id = consumer_token(tenant), unique("myapp-uploads-queue")
    body = {"filter_groups": [{"event_type": "myapp.file.uploaded",
                               "filters": [{"filter_type": "starts_with_greedy", "resource_id": "/uploads/"}]}],
            "queue_id": queue_id}
    first, again = create(consumer_hub, token, body), create(consumer_hub, token, {**body, "filter_groups": []})
    made = create(consumer_hub, token, {"filter_groups": []})
    assert (first.status_code, first.json()) == (201, {"queue_id": queue_id, "created": True})
    assert (again.status_code, again.json()) == (200, {"queue_id": queue_id, "created": False})
    assert made.status_code == 200 and made.json()["created"] is True and made.json()["queue_id"] != queue_id
    assert create(consumer_hub, token, {"queue_id": ""}).status_code == 200


def test_create_refusals(consumer_hub: ConsumerHub, tenant: str) -> None:
    token, url = consumer_token(tenant), f"{consumer_hub.rest}{QUEUES}"
    malformed = httpx.post(url, content=b"{nope", headers={**bearer(token), "Content-Type": "application/json"})
    assert malformed.status_code == 400 and malformed.headers["content-type"] == "application/problem+json"
    assert create(consumer_hub, token, {"queue_id": "bad/slash"}).status_code == 422
    assert create(consumer_hub, token, {"filter_groups": [{"filters": [{"filter_type": "regex"}]}]}).status_code == 422
    assert create(consumer_hub, token, {"filter_groups": [{"event_type": "a\u0000b", "filters": []}]}).status_code == 422
    assert create(consumer_hub, token, {"filter_groups": "all"}).status_code == 422
    assert httpx.post(url, json={}).status_code == 401
    assert create(consumer_hub, consumer_token(tenant, permissions=[CONSUME]), {}).status_code == 403
    malformed_claim = mint_token(tenant=tenant, permissions=list(DURABLE_PERMISSIONS),
                                 claims={CONSUME_TYPES_CLAIM: 5})
    refused_claim = create(consumer_hub, malformed_claim, {})
    assert refused_claim.status_code == 401 and refused_claim.json()["code"] == "AUT-0007"


def test_patch_refilters_and_delete_removes(consumer_hub: ConsumerHub, tenant: str) -> None:
    token, queue_id = consumer_token(tenant), unique("q")
    assert create(consumer_hub, token, {"queue_id": queue_id, "filter_groups": orjson.loads(groups("t.old"))}
                  ).status_code == 201
    patch = httpx.patch(f"{consumer_hub.rest}{QUEUES}", headers=bearer(token), json={
        "queue_id": queue_id, "current_filter_groups": orjson.loads(groups("t.old")),
        "new_filter_groups": orjson.loads(groups("t.new"))})
    assert (patch.status_code, patch.json()) == (200, {"success": True})
    stream, ident = connect(consumer_hub, token, DURABLE_STREAM, params={"queue_id": queue_id})
    with stream:
        assert ident == queue_id
        consumer_hub.publish(tenant, "t.old", {"n": 1})
        consumer_hub.publish(tenant, "t.new", {"n": 2})
        [frame] = stream.events(1)
        assert frame.id == queue_id and frame.json()["message"] == {"n": 2}
    gone = httpx.delete(f"{consumer_hub.rest}{QUEUES}", params={"queue_id": queue_id}, headers=bearer(token))
    assert (gone.status_code, gone.json()) == (200, {"success": True})
    assert httpx.delete(f"{consumer_hub.rest}{QUEUES}", params={"queue_id": queue_id},
                        headers=bearer(token)).status_code == 404
    assert refused(consumer_hub, token, DURABLE_STREAM, params={"queue_id": queue_id})[0] == 404


def test_durable_refusals_and_tenancy(consumer_hub: ConsumerHub, tenant: str) -> None:
    token, queue_id = consumer_token(tenant), unique("q")
    assert create(consumer_hub, token, {"queue_id": queue_id}).status_code == 201
    for bad in ("has space", "x" * 201, "bad/slash", ""):
        status, body = refused(consumer_hub, token, DURABLE_STREAM, params={"queue_id": bad})
        assert status == 422 and "^[A-Za-z0-9._-]{1,200}$" in body["detail"]
    assert refused(consumer_hub, consumer_token(tenant, permissions=[CREATE, DELETE]), DURABLE_STREAM,
                   params={"queue_id": queue_id})[0] == 403
    assert refused(consumer_hub, token, DURABLE_STREAM, params={"queue_id": unique("never")})[0] == 404
    stranger = consumer_token(unique("tenant"))
    assert refused(consumer_hub, stranger, DURABLE_STREAM, params={"queue_id": queue_id})[0] == 404
    patch = httpx.patch(f"{consumer_hub.rest}{QUEUES}", headers=bearer(stranger), json={"queue_id": queue_id})
    delete = httpx.delete(f"{consumer_hub.rest}{QUEUES}", params={"queue_id": queue_id}, headers=bearer(stranger))
    assert patch.status_code == delete.status_code == create(consumer_hub, stranger, {"queue_id": queue_id}
                                                             ).status_code == 404
    stream, queue_token = connect(consumer_hub, token)
    with stream:
        assert refused(consumer_hub, stranger, headers={"Last-Event-ID": queue_token})[0] == 404


def test_durable_stream_auto_acks_and_a_hang_up_requeues(consumer_hub: ConsumerHub, tenant: str) -> None:
    token, queue_id = consumer_token(tenant), unique("q")
    assert create(consumer_hub, token, {"queue_id": queue_id}).status_code == 201
    stream, _ = connect(consumer_hub, token, DURABLE_STREAM, params={"queue_id": queue_id})
    with stream:
        consumer_hub.publish(tenant, "t.acked", {"n": 1})
        assert stream.events(1)[0].json()["message"] == {"n": 1}
        time.sleep(1.5)  # past the auto-ack delay (0.3 s in the fixture)
    again, _ = connect(consumer_hub, token, DURABLE_STREAM, params={"queue_id": queue_id})
    with again:
        assert again.quiet(2) == []  # acknowledged: not redelivered
        consumer_hub.publish(tenant, "t.dropped", {"n": 2})
        assert again.events(1)[0].json()["message"] == {"n": 2}
        again.close()  # at once, inside the auto-ack delay: the closed channel requeues it
    third, _ = connect(consumer_hub, token, DURABLE_STREAM, params={"queue_id": queue_id})
    with third:
        assert third.events(1)[0].json()["message"] == {"n": 2}


def test_a_deleted_queue_ends_its_stream_with_an_error_event(consumer_hub: ConsumerHub, tenant: str) -> None:
    token, queue_id = consumer_token(tenant), unique("q")
    assert create(consumer_hub, token, {"queue_id": queue_id}).status_code == 201
    stream, _ = connect(consumer_hub, token, DURABLE_STREAM, params={"queue_id": queue_id})
    with stream:
        keepalive = stream.next(20, comments=True)  # the ~15 s keepalive of a quiet stream
        assert (keepalive.event, keepalive.data) == ("comment", "keepalive")
        assert httpx.delete(f"{consumer_hub.rest}{QUEUES}", params={"queue_id": queue_id},
                            headers=bearer(token)).status_code == 200
        error = stream.next(15)
        assert error.event == "error" and error.json()["status_code"] == 404 and error.json()["message"]
        stream.ended()


def test_a_broker_outage_is_503(consumer_hub: ConsumerHub, tenant: str) -> None:
    """An API whose RabbitMQ does not answer (a closed port): the queue routes answer 503, nothing is kept."""
    env = {**consumer_hub.env, "HUB_RABBITMQ_URL": f"amqp://hub:hub@127.0.0.1:{free_port()}/%2F"}
    token = consumer_token(tenant)
    with live_api(env) as base:
        made = httpx.post(f"{base}{QUEUES}", json={"queue_id": unique("q")}, headers=bearer(token), timeout=30)
        assert made.status_code == 503 and made.json()["code"] == "broker_unavailable"
        stream = SSE(base, STREAM, token)
        assert stream.status == 503 and stream.json()["code"] == "broker_unavailable"

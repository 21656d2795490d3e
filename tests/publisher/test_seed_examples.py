"""Every publishing example of seed 000, in REST and in gRPC (a client generated from the committed
protos), against the running hub: the answer the seed shows, and the event stored once in the
tenant's log as the CloudEvent docs/contract-notes.md N33 describes."""

from __future__ import annotations

import json
from typing import Any

from tests.publisher.conftest import (
    SOURCE,
    PublisherHub,
    bearer,
    metadata,
    pb,
    proto_event,
    publisher_token,
)

SINGLE = {"event": {"event_type": "myapp.user.created", "message": {"user_id": "123", "username": "john_doe"},
                    "occurred_at": "2024-10-16T14:30:00Z", "resource": {"resource_id": "/users/123"}}}
BATCH = {"events": [
    {"event_type": "myapp.file.uploaded", "message": {"file": "doc1.pdf"}, "occurred_at": "2024-10-16T14:30:00Z"},
    {"event_type": "myapp.file.uploaded", "message": {"file": "doc2.pdf"}, "occurred_at": "2024-10-16T14:30:01Z"},
]}


def _check_stored(row: dict[str, Any], tenant: str, event: dict[str, Any]) -> None:
    attributes = row["attributes"]
    assert row["source"] == SOURCE and row["type"] == event["event_type"]
    assert row["data"] == event["message"]
    assert attributes["tenantid"] == tenant and attributes["principalidentity"] == "publisher@example.com"
    assert attributes["time"] == event["occurred_at"] and attributes["occurredat"] == event["occurred_at"]
    assert attributes["publishedat"] > event["occurred_at"]  # stamped by the hub, now
    assert attributes.get("resourceid") == event.get("resource", {}).get("resource_id")


def test_rest_single_publish_example(publisher_hub: PublisherHub, rest, tenant: str) -> None:  # noqa: ANN001
    response = rest.post("/api/v1beta/events", json=SINGLE, headers=bearer(publisher_token(tenant)))
    assert response.status_code == 200
    assert response.json() == {"result": {"event": SINGLE["event"], "success": True}}
    [row] = publisher_hub.wait_stored(tenant, 1)
    _check_stored(row, tenant, SINGLE["event"])


def test_rest_batch_publish_example(publisher_hub: PublisherHub, rest, tenant: str) -> None:  # noqa: ANN001
    response = rest.post("/api/v1beta/events/batch", json=BATCH, headers=bearer(publisher_token(tenant)))
    assert response.status_code == 200
    assert response.json() == {"results": [{"event": event, "success": True} for event in BATCH["events"]]}
    rows = publisher_hub.wait_stored(tenant, 2)
    assert sorted(row["data"]["file"] for row in rows) == ["doc1.pdf", "doc2.pdf"]
    for row in rows:
        _check_stored(row, tenant, next(e for e in BATCH["events"] if e["message"] == row["data"]))


def test_grpc_publish_event_example(publisher_hub: PublisherHub, stub, tenant: str) -> None:  # noqa: ANN001
    event = proto_event("myapp.user.created", {"user_id": "123"}, "2024-10-16T14:30:00Z", "/users/123")
    request = pb.PublishEventRequest(event=event)
    response = stub.PublishEvent(request, metadata=metadata(publisher_token(tenant)))
    assert response.result.success and response.result.failure_reason == ""
    assert response.result.event == event
    [row] = publisher_hub.wait_stored(tenant, 1)
    _check_stored(row, tenant, {"event_type": "myapp.user.created", "message": {"user_id": "123"},
                                "occurred_at": "2024-10-16T14:30:00Z", "resource": {"resource_id": "/users/123"}})


def test_grpc_batch_publish_example(publisher_hub: PublisherHub, stub, tenant: str) -> None:  # noqa: ANN001
    events = [proto_event(e["event_type"], e["message"], e["occurred_at"]) for e in BATCH["events"]]
    events.append(proto_event("myapp.user.created", {"user_id": "7", "count": 3}, "2024-10-16T14:30:02Z"))
    request = pb.BatchPublishEventsRequest()
    for event in events:
        request.events.append(event)
    response = stub.BatchPublishEvents(request, metadata=metadata(publisher_token(tenant)))
    assert [result.success for result in response.results] == [True, True, True]
    assert [result.event for result in response.results] == events
    rows = publisher_hub.wait_stored(tenant, 3)
    sent = ({"file": "doc1.pdf"}, {"file": "doc2.pdf"}, {"user_id": "7", "count": 3})
    assert sorted(json.dumps(row["data"], sort_keys=True) for row in rows) == sorted(
        json.dumps(m, sort_keys=True) for m in sent)


def test_grpc_standard_health_service(publisher_hub: PublisherHub) -> None:
    """Seed 000, "Service Health": the standard gRPC health checking protocol, on the same server."""
    import grpc
    from grpc_health.v1 import health_pb2, health_pb2_grpc

    with grpc.insecure_channel(publisher_hub.grpc_address) as channel:
        health = health_pb2_grpc.HealthStub(channel)
        for service in ("", "nvidia.omniverse.notifications.publisher.v1beta.EventPublishingService"):
            answer = health.Check(health_pb2.HealthCheckRequest(service=service))
            assert answer.status == health_pb2.HealthCheckResponse.SERVING
        try:
            health.Check(health_pb2.HealthCheckRequest(service="no.such.Service"))
        except grpc.RpcError as exc:
            assert exc.code() == grpc.StatusCode.NOT_FOUND
        else:
            raise AssertionError("an unknown service must be NOT_FOUND")

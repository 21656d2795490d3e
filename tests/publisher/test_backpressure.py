"""Backpressure (N33): past the bound on events awaiting acknowledgement, a publish is refused whole
with 503 + Retry-After (REST) or RESOURCE_EXHAUSTED + a retry-after trailer (gRPC), and nothing of it
is sent."""

from __future__ import annotations

import uuid

import grpc
import pytest

from hub.publisher.admission import inflight_events
from tests.publisher.conftest import (
    bearer,
    grpc_server,
    hub_env,
    metadata,
    pb,
    pb_grpc,
    proto_event,
    publisher_token,
)

OCCURRED = "2024-10-16T14:30:00Z"


def test_rest_batch_past_the_bound_is_503_with_retry_after(client, override_settings,  # noqa: ANN001
                                                           tenant: str) -> None:
    override_settings(publisher_max_inflight_events=2, publisher_retry_after_seconds=3)
    events = [{"event_type": "a.b", "message": {"n": n}, "occurred_at": OCCURRED} for n in range(3)]
    response = client.post("/api/v1beta/events/batch", json={"events": events}, headers=bearer(publisher_token(tenant)))
    assert response.status_code == 503
    assert response.headers["retry-after"] == "3" and response.json()["code"] == "publisher_overloaded"
    assert inflight_events() == 0  # the refused call holds no room


def test_grpc_batch_past_the_bound_is_resource_exhausted(tenant: str) -> None:
    env = hub_env("postgresql+psycopg://unused@127.0.0.1:1/none", f"p{uuid.uuid4().hex[:10]}.",
                  HUB_PUBLISHER_MAX_INFLIGHT_EVENTS="2")
    events = [proto_event("a.b", {"n": str(n)}, OCCURRED) for n in range(3)]
    with grpc_server(env) as address, grpc.insecure_channel(address) as channel:
        client = pb_grpc.EventPublishingServiceStub(channel)
        with pytest.raises(grpc.RpcError) as raised:
            client.BatchPublishEvents(pb.BatchPublishEventsRequest(events=events),
                                      metadata=metadata(publisher_token(tenant)))
        assert raised.value.code() == grpc.StatusCode.RESOURCE_EXHAUSTED
        assert ("retry-after", "1") in tuple(raised.value.trailing_metadata())
        ok = client.BatchPublishEvents(pb.BatchPublishEventsRequest(events=events[:2]),
                                       metadata=metadata(publisher_token(tenant)))
        assert [r.success for r in ok.results] == [True, True]

"""Traces reach the seed 000 processes too (N71): a gRPC publish continues its caller's trace, the event
carries that context onto the backbone, and ingest and the consumer relay link to it, each process under
its own name, with only the standard ``OTEL_*`` variables set."""

from __future__ import annotations

import uuid
from collections.abc import Iterator
from typing import Any

import grpc
import pytest
from google.protobuf import struct_pb2, timestamp_pb2

from devkit.otlp import OtlpReceiver, otlp_receiver
from devkit.poll import wait_until
from hub.grpcapi.stubs import publisher_stubs
from tests.consumer.conftest import ConsumerHub, consumer_processes, consumer_token, metadata, pb, pb_grpc, unique
from tests.consumer.streams import Reader, Requests, events_of
from tests.publisher.conftest import publisher_token

ppb, ppb_grpc = publisher_stubs()
PUBLISH_SPAN = "nvidia.omniverse.notifications.publisher.v1beta.EventPublishingService/PublishEvent"


@pytest.fixture(scope="module")
def traced() -> Iterator[tuple[OtlpReceiver, ConsumerHub]]:
    with otlp_receiver() as collector:
        settings = {"OTEL_EXPORTER_OTLP_ENDPOINT": f"http://127.0.0.1:{collector.port}",
                    "OTEL_TRACES_SAMPLER": "always_on", "OTEL_BSP_SCHEDULE_DELAY": "200"}
        with consumer_processes(**settings) as hub:
            yield collector, hub


def _publish(address: str, tenant: str, event_type: str, traceparent: str) -> Any:
    message = struct_pb2.Struct()
    message.update({"traced": True})
    occurred = timestamp_pb2.Timestamp()
    occurred.GetCurrentTime()
    event = ppb.Event(event_type=event_type, message=message, occurred_at=occurred,
                      resource=ppb.EventResource(resource_id="/traced/1"))
    with grpc.insecure_channel(address) as channel:
        return ppb_grpc.EventPublishingServiceStub(channel).PublishEvent(
            ppb.PublishEventRequest(event=event),
            metadata=[("authorization", f"Bearer {publisher_token(tenant, [event_type])}"),
                      ("traceparent", traceparent)], timeout=30)


def test_a_published_event_is_traced_through_grpc_ingest_and_the_relay(traced, tenant: str) -> None:
    collector, hub = traced
    trace_id, caller_span = uuid.uuid4().hex, uuid.uuid4().hex[:16]
    event_type = unique("traced.event")
    token = consumer_token(tenant)
    with grpc.insecure_channel(hub.grpc_address) as channel:
        stub = pb_grpc.EventConsumerServiceStub(channel)
        queue = stub.CreateDurableQueue(pb.CreateDurableQueueRequest(queue_id=unique("q"), filter_groups=[
            pb.FilterGroup(event_type=event_type)]), metadata=metadata(token)).queue_id
        answer = _publish(hub.grpc_address, tenant, event_type, f"00-{trace_id}-{caller_span}-01")
        assert answer.result.success, answer
        requests = Requests(pb.ConsumeDurableEventsWithAcksRequest(queue_id=queue))
        reader = Reader(stub.ConsumeDurableEventsWithAcks(iter(requests), metadata=metadata(token)))
        [(_, received)] = events_of(reader, 1)
        reader.close()
    assert received.event_type == event_type

    def linked(prefix: str) -> list:
        return [s for s in collector.named(prefix) if any(link[0] == trace_id for link in s.links)]

    wait_until(lambda: linked("consumer relay page") and linked("ingest batch"), 30, 0.2,
               "the relay's and ingest's spans linked to the published event's trace")
    [publish] = [span for span in collector.named(PUBLISH_SPAN) if span.trace_id == trace_id]
    assert publish.service == "streaming-hub-grpc" and publish.parent_span_id == caller_span
    assert {span.service for span in linked("consumer relay page")} == {"streaming-hub-consumer-relay"}
    assert {span.service for span in linked("ingest batch")} == {"streaming-hub-ingest"}
    assert any(link == (trace_id, publish.span_id) for span in linked("ingest batch") for link in span.links)

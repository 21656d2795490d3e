"""The committed publisher proto is the seed's (E10): package, path, service, messages, field names,
numbers and types exactly as seed 000 gives them; and its stubs are generated from it, current."""

from __future__ import annotations

from google.protobuf.descriptor import FieldDescriptor

from hub.grpcapi import stubs

pb, pb_grpc = stubs.publisher_stubs()
MESSAGE, REPEATED = FieldDescriptor.TYPE_MESSAGE, FieldDescriptor.LABEL_REPEATED

# (message, field) -> (number, type name or scalar type, repeated), as the seed's API reference shows them.
SEED_FIELDS = {
    ("PublishEventRequest", "event"): (1, "nvidia.omniverse.notifications.publisher.v1beta.Event", False),
    ("Event", "event_type"): (1, FieldDescriptor.TYPE_STRING, False),
    ("Event", "message"): (2, "google.protobuf.Struct", False),
    ("Event", "occurred_at"): (3, "google.protobuf.Timestamp", False),
    ("Event", "resource"): (4, "nvidia.omniverse.notifications.publisher.v1beta.EventResource", False),
    ("EventResource", "resource_id"): (1, FieldDescriptor.TYPE_STRING, False),
    ("PublishEventResponse", "result"): (1, "nvidia.omniverse.notifications.publisher.v1beta.PublishingResult",
                                         False),
    ("PublishingResult", "event"): (1, "nvidia.omniverse.notifications.publisher.v1beta.Event", False),
    ("PublishingResult", "success"): (2, FieldDescriptor.TYPE_BOOL, False),
    ("PublishingResult", "failure_reason"): (3, FieldDescriptor.TYPE_STRING, False),
    ("BatchPublishEventsRequest", "events"): (1, "nvidia.omniverse.notifications.publisher.v1beta.Event", True),
    ("BatchPublishEventsResponse", "results"): (
        1, "nvidia.omniverse.notifications.publisher.v1beta.PublishingResult", True),
}


def _kind(field: FieldDescriptor) -> object:
    return field.message_type.full_name if field.type == MESSAGE else field.type


def test_the_proto_is_at_the_seeds_path_and_package() -> None:
    assert pb.DESCRIPTOR.name == "nvidia/omniverse/notifications/publisher/v1beta/event_publisher.proto"
    assert pb.DESCRIPTOR.package == "nvidia.omniverse.notifications.publisher.v1beta"
    service = pb.DESCRIPTOR.services_by_name["EventPublishingService"]
    assert {m.name: (m.input_type.name, m.output_type.name) for m in service.methods} == {
        "PublishEvent": ("PublishEventRequest", "PublishEventResponse"),
        "BatchPublishEvents": ("BatchPublishEventsRequest", "BatchPublishEventsResponse")}


def test_every_message_and_field_is_the_seeds() -> None:
    found = {(message.name, field.name): (field.number, _kind(field), field.label == REPEATED)
             for message in pb.DESCRIPTOR.message_types_by_name.values() for field in message.fields}
    assert found == SEED_FIELDS


def test_the_stubs_are_generated_from_the_committed_protos() -> None:
    stamp = (stubs.ensure_stubs() / stubs.STAMP).read_text(encoding="utf-8")
    assert stamp == stubs.protos_digest()
    assert pb.__file__.startswith(str(stubs.OUTPUT))


def test_generation_runs_from_scratch(tmp_path) -> None:  # noqa: ANN001
    """A fresh clone has no stubs: protoc makes them from the protos alone."""
    stubs.generate(tmp_path)
    generated = tmp_path / "nvidia/omniverse/notifications/publisher/v1beta"
    assert {p.name for p in generated.iterdir()} >= {"event_publisher_pb2.py", "event_publisher_pb2_grpc.py",
                                                     "__init__.py"}

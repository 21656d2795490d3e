"""Durable queues over gRPC, as the seed's examples use them: create (ensure-exists), consume with acks
and nacks, redelivery on reconnect, the auto-acking stream, update, delete, and every error status."""

from __future__ import annotations

from typing import Any

import grpc
import pytest

from hub.auth.tokens import mint_token
from hub.consumer.access import CONSUME, CONSUME_TYPES_CLAIM, CREATE, DURABLE_PERMISSIONS
from tests.consumer.conftest import ConsumerHub, consumer_token, metadata, pb, unique
from tests.consumer.streams import Reader, Requests, events_of


def create(stub: Any, token: str, queue_id: str = "", groups: list[Any] | None = None) -> Any:
    request = pb.CreateDurableQueueRequest(queue_id=queue_id)
    request.filter_groups.extend(groups or [])
    return stub.CreateDurableQueue(request, metadata=metadata(token))


def uploads_group(event_type: str, prefix: str = "/uploads/") -> Any:
    """The seed's CreateDurableQueue example filter: one type, a greedy resource prefix."""
    group = pb.FilterGroup(event_type=event_type)
    group.filters.append(pb.ResourceFilter(filter_type=pb.ResourceFilter.FILTER_TYPE_STARTS_WITH_GREEDY,
                                           resource_id=prefix))
    return group


def with_acks(stub: Any, token: str, queue_id: str) -> tuple[Requests, Reader]:
    requests = Requests(pb.ConsumeDurableEventsWithAcksRequest(queue_id=queue_id))
    return requests, Reader(stub.ConsumeDurableEventsWithAcks(iter(requests), metadata=metadata(token)))


def test_create_is_ensure_exists_and_server_ids_are_made(stub: Any, tenant: str) -> None:
    token, queue_id = consumer_token(tenant), unique("myapp-uploads-queue")
    first = create(stub, token, queue_id, [uploads_group("myapp.file.uploaded")])
    again = create(stub, token, queue_id, [pb.FilterGroup(event_type="other.type")])
    made = create(stub, token)
    assert (first.queue_id, first.created) == (queue_id, True)
    assert (again.queue_id, again.created) == (queue_id, False)
    assert made.created and made.queue_id.startswith("durable-queue-") and made.queue_id != queue_id


@pytest.mark.parametrize("queue_id", ["has space", "x" * 201, "bad/slash", "ünïcode"])
def test_invalid_queue_ids_are_invalid_argument_everywhere(stub: Any, tenant: str, queue_id: str) -> None:
    token = consumer_token(tenant)
    calls = [lambda: create(stub, token, queue_id),
             lambda: stub.UpdateDurableQueue(pb.UpdateDurableQueueRequest(queue_id=queue_id), metadata=metadata(token)),
             lambda: stub.DeleteDurableQueue(pb.DeleteDurableQueueRequest(queue_id=queue_id), metadata=metadata(token)),
             lambda: next(iter(stub.ConsumeDurableEvents(pb.ConsumeDurableEventsRequest(queue_id=queue_id),
                                                         metadata=metadata(token))))]
    for call in calls:
        with pytest.raises(grpc.RpcError) as caught:
            call()
        assert caught.value.code() is grpc.StatusCode.INVALID_ARGUMENT
        assert "^[A-Za-z0-9._-]{1,200}$" in caught.value.details()


def test_auth_statuses(stub: Any, tenant: str) -> None:
    with pytest.raises(grpc.RpcError) as caught:
        stub.CreateDurableQueue(pb.CreateDurableQueueRequest(), metadata=[("authorization", "Bearer nope")])
    assert caught.value.code() is grpc.StatusCode.UNAUTHENTICATED
    consume_only = consumer_token(tenant, permissions=[CONSUME])
    with pytest.raises(grpc.RpcError) as caught:
        create(stub, consume_only, unique("q"))
    assert caught.value.code() is grpc.StatusCode.PERMISSION_DENIED
    queue_id = create(stub, consumer_token(tenant), unique("q")).queue_id
    with pytest.raises(grpc.RpcError) as caught:
        stub.DeleteDurableQueue(pb.DeleteDurableQueueRequest(queue_id=queue_id),
                                metadata=metadata(consumer_token(tenant, permissions=[CREATE])))
    assert caught.value.code() is grpc.StatusCode.PERMISSION_DENIED


@pytest.mark.parametrize("types", [5, {"myapp.a": 1}, ["myapp.a", 3]])
def test_a_malformed_consume_event_types_claim_is_unauthenticated(stub: Any, tenant: str, types: object) -> None:
    token = mint_token(tenant=tenant, permissions=list(DURABLE_PERMISSIONS), claims={CONSUME_TYPES_CLAIM: types})
    with pytest.raises(grpc.RpcError) as caught:
        create(stub, token, unique("q"))
    assert caught.value.code() is grpc.StatusCode.UNAUTHENTICATED
    assert ("hub-error-code", "AUT-0007") in caught.value.trailing_metadata()


def test_another_tenants_queue_does_not_exist(stub: Any, tenant: str) -> None:
    queue_id = create(stub, consumer_token(tenant), unique("shared-name")).queue_id
    stranger = consumer_token(f"{tenant}-other")
    for call in (lambda: create(stub, stranger, queue_id),
                 lambda: stub.DeleteDurableQueue(pb.DeleteDurableQueueRequest(queue_id=queue_id),
                                                 metadata=metadata(stranger))):
        with pytest.raises(grpc.RpcError) as caught:
            call()
        assert caught.value.code() is grpc.StatusCode.NOT_FOUND
    _, reader = with_acks(stub, stranger, queue_id)
    assert reader.ended().code() is grpc.StatusCode.NOT_FOUND


def test_acks_nacks_and_redelivery_on_reconnect(consumer_hub: ConsumerHub, stub: Any, tenant: str) -> None:
    token, kind = consumer_token(tenant), unique("myapp.file.uploaded")
    queue_id = create(stub, token, unique("q"), [uploads_group(kind)]).queue_id
    consumer_hub.publish(tenant, kind, {"file": "a.pdf"}, "/uploads/a.pdf")
    consumer_hub.publish(tenant, kind, {"file": "x.pdf"}, "/elsewhere/x.pdf")  # filtered out
    consumer_hub.publish(tenant, kind, {"file": "b.pdf"}, "/uploads/deep/b.pdf")
    requests, reader = with_acks(stub, token, queue_id)
    (first, a), (second, b) = events_of(reader, 2)
    assert [a.message["file"], b.message["file"]] == ["a.pdf", "b.pdf"]
    assert a.event_type == kind and a.occurred_at.seconds > 0 and a.published_at.seconds > 0
    requests.send(pb.ConsumeDurableEventsWithAcksRequest(ack_delivery_tags=[first.delivery_tag, 987654321],
                                                         nack_delivery_tags=[second.delivery_tag]))
    (again, b_again), = events_of(reader, 1)  # the nack requeues at once; the unknown tag is skipped
    assert b_again.message["file"] == "b.pdf" and again.delivery_tag != second.delivery_tag
    assert reader.quiet(1.0) == []
    reader.close()
    _, reader = with_acks(stub, token, queue_id)  # never acked: redelivered on reconnect
    (_, b_third), = events_of(reader, 1)
    assert b_third.message["file"] == "b.pdf" and reader.quiet(1.0) == []
    reader.close()


def test_a_tag_in_both_lists_is_acknowledged(consumer_hub: ConsumerHub, stub: Any, tenant: str) -> None:
    token, kind = consumer_token(tenant), unique("myapp.both")
    queue_id = create(stub, token, unique("q"), [pb.FilterGroup(event_type=kind)]).queue_id
    consumer_hub.publish(tenant, kind, {"n": 1})
    requests, reader = with_acks(stub, token, queue_id)
    (response, _), = events_of(reader, 1)
    requests.send(pb.ConsumeDurableEventsWithAcksRequest(ack_delivery_tags=[response.delivery_tag],
                                                         nack_delivery_tags=[response.delivery_tag]))
    assert reader.quiet(1.5) == []
    reader.close()
    _, reader = with_acks(stub, token, queue_id)
    assert reader.quiet(1.5) == []
    reader.close()


def test_update_refilters_and_delete_ends_streams(consumer_hub: ConsumerHub, stub: Any, tenant: str) -> None:
    token, kind, other = consumer_token(tenant), unique("myapp.a"), unique("myapp.b")
    queue_id = create(stub, token, unique("q"), [pb.FilterGroup(event_type=kind)]).queue_id
    stub.UpdateDurableQueue(pb.UpdateDurableQueueRequest(
        queue_id=queue_id, current_filter_groups=[pb.FilterGroup(event_type=kind)],
        new_filter_groups=[pb.FilterGroup(event_type=other)]), metadata=metadata(token))
    consumer_hub.publish(tenant, kind, {"n": "old"})
    consumer_hub.publish(tenant, other, {"n": "new"})
    requests, reader = with_acks(stub, token, queue_id)
    (response, event), = events_of(reader, 1)
    assert event.event_type == other and reader.quiet(1.0) == []
    stub.DeleteDurableQueue(pb.DeleteDurableQueueRequest(queue_id=queue_id), metadata=metadata(token))
    assert reader.ended().code() is grpc.StatusCode.NOT_FOUND
    _, reader = with_acks(stub, token, queue_id)
    assert reader.ended().code() is grpc.StatusCode.NOT_FOUND


def test_auto_ack_stream(consumer_hub: ConsumerHub, stub: Any, tenant: str) -> None:
    """The deprecated ConsumeDurableEvents, as the seed's example reads it; acks follow after the delay."""
    token, kind = consumer_token(tenant), unique("myapp.auto")
    queue_id = create(stub, token, unique("saved-queue-id"), [pb.FilterGroup(event_type=kind)]).queue_id
    for n in range(3):
        consumer_hub.publish(tenant, kind, {"n": n})
    reader = Reader(stub.ConsumeDurableEvents(pb.ConsumeDurableEventsRequest(queue_id=queue_id),
                                              metadata=metadata(token)))
    seen: list[int] = []
    while len(seen) < 3:
        seen += [int(event.message["n"]) for event in reader.next().events]
    assert sorted(seen) == [0, 1, 2]
    reader.quiet(1.0)  # past the auto-ack delay
    reader.close()
    _, again = with_acks(stub, token, queue_id)
    assert again.quiet(1.5) == []
    again.close()


def test_events_the_principal_may_not_see_are_never_sent(consumer_hub: ConsumerHub, stub: Any,
                                                         tenant: str) -> None:
    kind, secret = unique("myapp.visible"), unique("myapp.secret")
    token = consumer_token(tenant, types=[kind])
    queue_id = create(stub, token, unique("q"),
                      [pb.FilterGroup(event_type=kind), pb.FilterGroup(event_type=secret)]).queue_id
    consumer_hub.publish(tenant, secret, {"n": "hidden"})
    consumer_hub.publish(tenant, kind, {"n": "shown"})
    _, reader = with_acks(stub, token, queue_id)
    (_, event), = events_of(reader, 1)
    assert event.event_type == kind and reader.quiet(1.0) == []
    reader.close()


def test_each_filter_type_at_several_depths(consumer_hub: ConsumerHub, stub: Any, tenant: str) -> None:
    token, kind = consumer_token(tenant), unique("myapp.depth")
    group = pb.FilterGroup(event_type=kind)
    for filter_type, prefix in ((pb.ResourceFilter.FILTER_TYPE_EQ, "/eq/a"),
                                (pb.ResourceFilter.FILTER_TYPE_UNSPECIFIED, "/unspecified/a"),
                                (pb.ResourceFilter.FILTER_TYPE_STARTS_WITH_LAZY, "/lazy/"),
                                (pb.ResourceFilter.FILTER_TYPE_STARTS_WITH_GREEDY, "/greedy/")):
        group.filters.append(pb.ResourceFilter(filter_type=filter_type, resource_id=prefix))
    queue_id = create(stub, token, unique("q"), [group]).queue_id
    chosen = {"/eq/a", "/unspecified/a", "/lazy/x", "/greedy/x", "/greedy/x/y/z"}
    others = {"/eq/a/b", "/eq", "/unspecified/a/b", "/lazy", "/lazy/x/y", "/greedy", "/other/x", "/eqa"}
    for resource in sorted(chosen | others):
        consumer_hub.publish(tenant, kind, {"resource": resource}, resource)
    consumer_hub.publish(tenant, unique("myapp.othertype"), {"resource": "/eq/a"}, "/eq/a")
    requests, reader = with_acks(stub, token, queue_id)
    found = events_of(reader, len(chosen))
    assert {event.message["resource"] for _, event in found} == chosen
    assert reader.quiet(1.5) == []
    reader.close()


def test_two_tenants_with_identical_filters_stay_apart(consumer_hub: ConsumerHub, stub: Any, tenant: str) -> None:
    kind, other = unique("myapp.same"), f"{tenant}-twin"
    readers = {}
    for name in (tenant, other):
        token = consumer_token(name)
        queue_id = create(stub, token, unique("q"), [pb.FilterGroup(event_type=kind)]).queue_id
        readers[name] = with_acks(stub, token, queue_id)[1]
        consumer_hub.publish(name, kind, {"tenant": name})
    for name, reader in readers.items():
        (_, event), = events_of(reader, 1)
        assert event.message["tenant"] == name and reader.quiet(1.0) == []
        reader.close()


def test_disconnects_without_acks_spend_the_budget(consumer_hub: ConsumerHub, stub: Any, tenant: str) -> None:
    from tests.consumer.conftest import DELIVERY_LIMIT

    token, kind = consumer_token(tenant), unique("myapp.dropped")
    queue_id = create(stub, token, unique("q"), [pb.FilterGroup(event_type=kind)]).queue_id
    consumer_hub.publish(tenant, kind, {"n": 1})
    for _ in range(DELIVERY_LIMIT):
        _, reader = with_acks(stub, token, queue_id)
        events_of(reader, 1)
        reader.close()  # gone without an ack: the message returns, one delivery spent
    _, reader = with_acks(stub, token, queue_id)
    assert reader.quiet(2.0) == []  # past the budget: dead-lettered
    reader.close()

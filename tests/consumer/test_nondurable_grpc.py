"""Non-durable streams over gRPC, as the seed's example opens them: the reconnect token, the grace,
shared tokens, filter updates with previous_filter_groups, and the token rule."""

from __future__ import annotations

import time
from typing import Any

import grpc

from tests.consumer.conftest import GRACE_SECONDS, ConsumerHub, consumer_token, metadata, pb, unique
from tests.consumer.streams import Reader, Requests

Request = pb.ConsumeNonDurableEventsRequest


def open_stream(stub: Any, token: str, first: Any) -> tuple[Requests, Reader, str]:
    requests = Requests(first)
    reader = Reader(stub.ConsumeNonDurableEvents(iter(requests), metadata=metadata(token)))
    opening = reader.next()
    assert list(opening.events) == [] and opening.reconnect_token
    return requests, reader, opening.reconnect_token


def fresh(kind: str) -> Any:
    """The seed's example request: one filter group, no resource filters, no token."""
    request = Request()
    request.filter_groups.append(pb.FilterGroup(event_type=kind))
    return request


def types_of(reader: Reader, count: int) -> list[str]:
    seen: list[str] = []
    while len(seen) < count:
        seen += [event.event_type for event in reader.next().events]
    return seen


def test_stream_reconnect_keeps_the_backlog(consumer_hub: ConsumerHub, stub: Any, tenant: str) -> None:
    token, kind = consumer_token(tenant), unique("myapp.user.created")
    _, reader, reconnect = open_stream(stub, token, fresh(kind))
    consumer_hub.publish(tenant, kind, {"user_id": "123"})
    response = reader.next()
    assert response.reconnect_token == reconnect and response.events[0].message["user_id"] == "123"
    reader.close()
    consumer_hub.publish(tenant, kind, {"user_id": "456"})  # while no one is attached
    time.sleep(1.0)
    _, reader, again = open_stream(stub, token, Request(reconnect_token=reconnect))
    assert again == reconnect
    assert reader.next().events[0].message["user_id"] == "456"
    reader.close()


def test_after_the_grace_the_token_is_not_found(stub: Any, tenant: str) -> None:
    token = consumer_token(tenant)
    _, reader, reconnect = open_stream(stub, token, fresh(unique("myapp.gone")))
    reader.close()
    time.sleep(GRACE_SECONDS + 3)
    late = Reader(stub.ConsumeNonDurableEvents(iter([Request(reconnect_token=reconnect)]), metadata=metadata(token)))
    assert late.ended().code() is grpc.StatusCode.NOT_FOUND


def test_an_invalid_token_is_rejected_without_echo(stub: Any, tenant: str) -> None:
    bad = "secret token\x7f"
    reader = Reader(stub.ConsumeNonDurableEvents(iter([Request(reconnect_token=bad)]),
                                                 metadata=metadata(consumer_token(tenant))))
    error = reader.ended()
    assert error.code() is grpc.StatusCode.INVALID_ARGUMENT
    assert "reconnect_token" in error.details() and "secret" not in error.details()


def test_a_token_of_another_tenant_is_not_found(stub: Any, tenant: str) -> None:
    _, reader, reconnect = open_stream(stub, consumer_token(tenant), fresh(unique("myapp.mine")))
    stranger = Reader(stub.ConsumeNonDurableEvents(iter([Request(reconnect_token=reconnect)]),
                                                   metadata=metadata(consumer_token(f"{tenant}-x"))))
    assert stranger.ended().code() is grpc.StatusCode.NOT_FOUND
    reader.close()


def test_filter_update_on_the_open_stream(consumer_hub: ConsumerHub, stub: Any, tenant: str) -> None:
    token, old, new = consumer_token(tenant), unique("myapp.old"), unique("myapp.new")
    requests, reader, reconnect = open_stream(stub, token, fresh(old))
    update = Request(reconnect_token=reconnect)
    update.filter_groups.append(pb.FilterGroup(event_type=new))
    update.previous_filter_groups.append(pb.FilterGroup(event_type=old))
    requests.send(update)
    time.sleep(1.0)
    consumer_hub.publish(tenant, old, {"n": 1})
    consumer_hub.publish(tenant, new, {"n": 2})
    assert types_of(reader, 1) == [new] and reader.quiet(1.0) == []
    reader.close()


def test_two_clients_on_one_token_share_its_events(consumer_hub: ConsumerHub, stub: Any, tenant: str) -> None:
    token, kind = consumer_token(tenant), unique("myapp.shared")
    _, first, reconnect = open_stream(stub, token, fresh(kind))
    _, second, _ = open_stream(stub, token, Request(reconnect_token=reconnect))
    for n in range(20):
        consumer_hub.publish(tenant, kind, {"n": n})
    seen: list[int] = []
    deadline = time.monotonic() + 30
    per_client = [0, 0]
    while len(seen) < 20 and time.monotonic() < deadline:
        for index, reader in enumerate((first, second)):
            for response in reader.quiet(0.3):
                per_client[index] += len(response.events)
                seen += [int(event.message["n"]) for event in response.events]
    assert sorted(seen) == list(range(20))  # each event once, split between the two
    assert min(per_client) > 0, per_client
    first.close()
    second.close()

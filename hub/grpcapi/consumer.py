"""``EventConsumerService`` (seed 000): the gRPC face of hub.consumer (streams, queues, triage)."""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncIterator
from typing import Any

import grpc

from hub.config import get_settings
from hub.consumer import service
from hub.consumer.access import Consumer, consumer_from_token, triage_operator
from hub.consumer.filters import FILTER_TYPE_NUMBERS, FilterGroup, InvalidFilter, ResourceFilter, check_groups
from hub.consumer.stream import Stream
from hub.consumer.topology import ConsumerRabbit
from hub.consumer.triage import ActionResult, DeadLetter, TriageSession
from hub.errors import invalid
from hub.grpcapi.encoding import EventEncodings, durable_response, event_message
from hub.grpcapi.publisher import authorization
from hub.grpcapi.status import grpc_method, grpc_stream
from hub.grpcapi.stubs import consumer_stubs

pb, pb_grpc = consumer_stubs()


def groups_from_proto(messages: Any, field: str) -> tuple[FilterGroup, ...]:
    groups = []
    for message in messages:
        filters = []
        for item in message.filters:
            if item.filter_type not in FILTER_TYPE_NUMBERS:
                raise invalid(field, f"{field}: unknown filter_type {item.filter_type}")
            filters.append(ResourceFilter(FILTER_TYPE_NUMBERS[item.filter_type], item.resource_id))
        groups.append(FilterGroup(message.event_type, tuple(filters)))
    try:
        return check_groups(groups, field)
    except InvalidFilter as exc:
        raise invalid(field, str(exc)) from None


async def _settle_from(requests: AsyncIterator[Any], stream: Stream) -> None:
    """Apply each later request's acks, then nacks, until the client stops sending."""
    async for request in requests:
        await stream.settle(acks=list(request.ack_delivery_tags), nacks=list(request.nack_delivery_tags))


async def _refilter_from(requests: AsyncIterator[Any], consumer: Consumer, broker: ConsumerRabbit, queue_id: str) -> None:
    """Apply each later request that carries previous_filter_groups as a filter update."""
    async for request in requests:
        if request.previous_filter_groups:
            record = await service.find_owned(consumer=consumer, queue_id=queue_id, durable=False)
            await service.refilter(broker=broker, record=record,
                                   groups=groups_from_proto(request.filter_groups, "filter_groups"))


@contextlib.asynccontextmanager
async def side_task(coroutine: Any) -> AsyncIterator[asyncio.Task]:
    task = asyncio.create_task(coroutine)
    try:
        yield task
    finally:
        task.cancel()
        with contextlib.suppress(BaseException):
            await task


def _raise_if_failed(task: asyncio.Task) -> None:
    if task.done() and not task.cancelled() and task.exception() is not None:
        raise task.exception()


async def _act_from(requests: AsyncIterator[Any], session: TriageSession) -> None:
    async for request in requests:
        for entry in request.actions:
            await session.act(entry.delivery_tag, entry.action)


def triage_message(item: DeadLetter | ActionResult) -> Any:
    """One ``ManageDeadLetteredEventsResponse``: a browsed message or an action's outcome."""
    response = pb.ManageDeadLetteredEventsResponse
    if isinstance(item, ActionResult):
        return response(action_outcome=response.ActionOutcome(delivery_tag=item.tag, outcome=int(item.outcome),
                                                              detail=item.detail))
    browsed = response.DeadLetteredEvent(reason=int(item.reason), origin_queue=item.origin_queue,
                                         delivery_count=item.delivery_count, event=event_message(item.event),
                                         resource_id=item.event.resource_id or "", delivery_tag=item.tag)
    if item.dead_lettered_at is not None:
        browsed.dead_lettered_at.FromDatetime(item.dead_lettered_at)
    return response(dead_lettered_event=browsed)


class EventConsumerService(pb_grpc.EventConsumerServiceServicer):
    """The seed's seven RPCs, authenticated by the ``authorization`` metadata."""

    def __init__(self, broker: ConsumerRabbit | None = None) -> None:
        self.broker = broker or ConsumerRabbit()
        self.encodings = EventEncodings()  # shared by the streams: an event sent to N queues is encoded once

    @grpc_method
    async def CreateDurableQueue(self, request: Any, context: grpc.aio.ServicerContext) -> Any:  # noqa: N802
        consumer = consumer_from_token(authorization(context))
        groups = groups_from_proto(request.filter_groups, "filter_groups")
        queue_id, created = await service.ensure_durable(broker=self.broker, consumer=consumer,
                                                         queue_id=request.queue_id, groups=groups)
        return pb.CreateDurableQueueResponse(queue_id=queue_id, created=created)

    @grpc_method
    async def UpdateDurableQueue(self, request: Any, context: grpc.aio.ServicerContext) -> Any:  # noqa: N802
        consumer = consumer_from_token(authorization(context))
        service.check_queue_id(request.queue_id)
        groups = groups_from_proto(request.new_filter_groups, "new_filter_groups")
        await service.update_durable(broker=self.broker, consumer=consumer, queue_id=request.queue_id, groups=groups)
        return pb.UpdateDurableQueueResponse()

    @grpc_method
    async def DeleteDurableQueue(self, request: Any, context: grpc.aio.ServicerContext) -> Any:  # noqa: N802
        consumer = consumer_from_token(authorization(context))
        await service.delete_durable(broker=self.broker, consumer=consumer, queue_id=request.queue_id)
        return pb.DeleteDurableQueueResponse()

    @grpc_stream
    async def ConsumeDurableEventsWithAcks(self, requests: Any, context: grpc.aio.ServicerContext):  # noqa: N802
        consumer = consumer_from_token(authorization(context))
        first = await anext(aiter(requests), None)
        if first is None:
            raise invalid("queue_id", "the first request must carry queue_id")
        record = await service.attach_durable(broker=self.broker, consumer=consumer, queue_id=first.queue_id)
        async with Stream(self.broker, queue_id=record.queue_id, consumer=consumer) as stream:
            await stream.settle(acks=list(first.ack_delivery_tags), nacks=list(first.nack_delivery_tags))
            async with side_task(_settle_from(requests, stream)) as settler:
                while True:
                    _raise_if_failed(settler)
                    for delivery in await stream.next_batch():
                        yield durable_response(self.encodings, delivery.body, delivery.event, delivery.tag)

    @grpc_stream
    async def ConsumeDurableEvents(self, request: Any, context: grpc.aio.ServicerContext):  # noqa: N802
        consumer = consumer_from_token(authorization(context))
        record = await service.attach_durable(broker=self.broker, consumer=consumer, queue_id=request.queue_id)
        delay = get_settings().consumer_autoack_delay_seconds
        async with Stream(self.broker, queue_id=record.queue_id, consumer=consumer) as stream:
            while True:
                batch = await stream.next_batch()
                if batch:
                    yield pb.ConsumeDurableEventsResponse(events=[event_message(d.event) for d in batch])
                    asyncio.create_task(stream.ack_later([d.tag for d in batch], delay))

    @grpc_stream
    async def ConsumeNonDurableEvents(self, requests: Any, context: grpc.aio.ServicerContext):  # noqa: N802
        consumer = consumer_from_token(authorization(context))
        first = await anext(aiter(requests), None) or pb.ConsumeNonDurableEventsRequest()
        token = first.reconnect_token if first.HasField("reconnect_token") else None
        queue_id = await service.open_non_durable(
            broker=self.broker, consumer=consumer, token=token,
            groups=groups_from_proto(first.filter_groups, "filter_groups"),
            update=bool(first.previous_filter_groups))
        async with Stream(self.broker, queue_id=queue_id, consumer=consumer) as stream:
            yield pb.ConsumeNonDurableEventsResponse(reconnect_token=queue_id)
            async with side_task(_refilter_from(requests, consumer, self.broker, queue_id)) as refilter:
                while True:
                    _raise_if_failed(refilter)
                    batch = await stream.next_batch()
                    if batch:
                        yield pb.ConsumeNonDurableEventsResponse(
                            events=[event_message(d.event) for d in batch], reconnect_token=queue_id)
                        await stream.settle(acks=[d.tag for d in batch])

    @grpc_stream
    async def ManageDeadLetteredEvents(self, requests: Any, context: grpc.aio.ServicerContext):  # noqa: N802
        await triage_operator(authorization(context))
        first = await anext(aiter(requests), None) or pb.ManageDeadLetteredEventsRequest()
        async with TriageSession(self.broker) as session:
            for entry in first.actions:
                await session.act(entry.delivery_tag, entry.action)
            async with side_task(_act_from(requests, session)) as actor:
                while True:
                    _raise_if_failed(actor)
                    session.ensure_alive()
                    with contextlib.suppress(TimeoutError):
                        async with asyncio.timeout(0.5):
                            yield triage_message(await session.outbox.get())


def add_to_server(server: grpc.aio.Server) -> str:
    """Register the service on SERVER; returns its full name (for the health service)."""
    pb_grpc.add_EventConsumerServiceServicer_to_server(EventConsumerService(), server)
    return pb.DESCRIPTOR.services_by_name["EventConsumerService"].full_name

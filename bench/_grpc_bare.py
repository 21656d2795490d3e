"""The ceiling of the consumer stream's last hop: a bare grpc.aio ``ConsumeDurableEventsWithAcks`` server that
sends one prebuilt event per response as fast as it can, to a client that acks every response as
bench/consume.py's client does. No broker, no hub code: what gRPC alone costs per message here.

Not a bench of its own (``make bench`` skips ``bench/_*.py``).
"""

from __future__ import annotations

import asyncio
import multiprocessing
import time
from datetime import UTC, datetime
from typing import Any

import grpc

from hub.consumer.messages import ConsumerEvent
from hub.grpcapi.encoding import event_message
from hub.grpcapi.stubs import consumer_stubs
from devkit.pg import free_port

pb, pb_grpc = consumer_stubs()


class _Sender(pb_grpc.EventConsumerServiceServicer):
    def __init__(self, events: int, spent: Any) -> None:
        self.events, self.spent = events, spent
        moment = datetime.now(UTC)
        self.event = event_message(ConsumerEvent("bench.published", "bench", moment, moment, {"n": 1, "sent": 0.0}))

    async def ConsumeDurableEventsWithAcks(self, requests: Any, context: Any):  # noqa: N802, ANN201
        await anext(aiter(requests))
        acked = 0

        async def settle() -> None:
            nonlocal acked
            async for request in requests:
                acked += len(request.ack_delivery_tags)

        settler = asyncio.create_task(settle())
        started = time.process_time()
        for tag in range(self.events):
            yield pb.ConsumeDurableEventsWithAcksResponse(events=[self.event], delivery_tag=tag)
        while acked < self.events:
            await asyncio.sleep(0.005)
        self.spent.value = time.process_time() - started
        settler.cancel()


def _serve(port: int, events: int, spent: Any) -> None:
    async def serve() -> None:
        server = grpc.aio.server()
        pb_grpc.add_EventConsumerServiceServicer_to_server(_Sender(events, spent), server)
        server.add_insecure_port(f"127.0.0.1:{port}")
        await server.start()
        await server.wait_for_termination()

    asyncio.run(serve())


async def ack_requests(queue_id: str, acks: asyncio.Queue):  # noqa: ANN201
    """The requests of a client that acks every response: QUEUE_ID first, then every tag put on ACKS, as many
    per request as are waiting (the seed's example acks each response as it is processed)."""
    yield pb.ConsumeDurableEventsWithAcksRequest(queue_id=queue_id)
    while True:
        tags = [await acks.get()]
        while not acks.empty():
            tags.append(acks.get_nowait())
        yield pb.ConsumeDurableEventsWithAcksRequest(ack_delivery_tags=tags)


async def _consume(address: str, events: int) -> tuple[float, float]:
    """(wall seconds, client CPU seconds) to receive and ack EVENTS responses."""
    acks: asyncio.Queue = asyncio.Queue()
    async with grpc.aio.insecure_channel(address) as channel:
        await channel.channel_ready()
        call = pb_grpc.EventConsumerServiceStub(channel).ConsumeDurableEventsWithAcks(ack_requests("bare", acks))
        seen, wall, cpu = 0, time.monotonic(), time.process_time()
        async for response in call:
            seen += 1
            acks.put_nowait(response.delivery_tag)
            if seen >= events:
                break
        wall, cpu = time.monotonic() - wall, time.process_time() - cpu
        await asyncio.sleep(0.3)  # the last acks leave
        call.cancel()
    return wall, cpu


def bare_stream(events: int) -> tuple[float, float, float]:
    """(messages/s, server CPU µs per message, client CPU µs per message) of the bare stream."""
    context = multiprocessing.get_context("spawn")
    spent = context.Value("d", 0.0)
    port = free_port()
    server = context.Process(target=_serve, args=(port, events, spent), daemon=True)
    server.start()
    try:
        wall, client_cpu = asyncio.run(_consume(f"127.0.0.1:{port}", events))
        deadline = time.monotonic() + 10
        while spent.value == 0.0 and time.monotonic() < deadline:
            time.sleep(0.05)
    finally:
        server.terminate()
        server.join()
    return events / wall, spent.value / events * 1e6, client_cpu / events * 1e6

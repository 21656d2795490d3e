"""What bench/live.py's readers are: durable queues consumed with acks over gRPC, WebSocket subscribers of
seed 003, an SSE reader; each notes when every event of its run arrived.

Not a bench of its own (``make bench`` skips ``bench/_*.py``).
"""

from __future__ import annotations

import asyncio
import time

import grpc
import orjson

from bench._grpc_bare import ack_requests
from hub.grpcapi.stubs import consumer_stubs

cpb, cpb_grpc = consumer_stubs()
SSE_GROUPS = orjson.dumps([{"event_type": "bench.published"}]).decode()


async def queues_of(address: str, token: str, count: int, delete: list[str] | None = None) -> list[str]:
    """Create COUNT durable queues of ``bench.published`` (or delete the queues of DELETE)."""
    metadata = (("authorization", f"Bearer {token}"),)
    async with grpc.aio.insecure_channel(address) as channel:
        stub = cpb_grpc.EventConsumerServiceStub(channel)
        for queue_id in delete or []:
            await stub.DeleteDurableQueue(cpb.DeleteDurableQueueRequest(queue_id=queue_id), metadata=metadata)
        request = cpb.CreateDurableQueueRequest(filter_groups=[cpb.FilterGroup(event_type="bench.published")])
        return [(await stub.CreateDurableQueue(request, metadata=metadata)).queue_id for _ in range(count)]


async def consume(address: str, token: str, queue_id: str, run: str, received: dict, want: int) -> None:
    """Consume QUEUE_ID with acks, noting when each event of RUN arrived, until WANT did."""
    acks: asyncio.Queue = asyncio.Queue()
    async with grpc.aio.insecure_channel(address) as channel:
        call = cpb_grpc.EventConsumerServiceStub(channel).ConsumeDurableEventsWithAcks(
            ack_requests(queue_id, acks), metadata=(("authorization", f"Bearer {token}"),))
        seen = 0
        async for response in call:
            now = time.time()
            for event in response.events:
                if event.message["run"] == run:
                    received[(queue_id, int(event.message["n"]))] = now
                    seen += 1
            acks.put_nowait(response.delivery_tag)
            if seen >= want:
                break
        await asyncio.sleep(0.2)  # the last acks leave
        call.cancel()


async def subscribe(url: str, run: str, received: dict, index: int, ready: asyncio.Event) -> None:
    """One WebSocket subscriber of URL, noting when each frame of RUN arrived."""
    from websockets.asyncio.client import connect

    async with connect(url, max_size=None) as ws:
        ready.set()
        async for message in ws:
            data = orjson.loads(message)["data"]
            if data.get("run") == run:
                received[(index, data["n"])] = time.time()


async def sse(url: str, token: str, run: str, received: dict, ready: asyncio.Event) -> None:
    """One SSE reader of ``/api/v1beta/events/stream`` (a non-durable queue, acked as written), noting
    when each event of RUN arrived."""
    import aiohttp

    params = {"filter_groups": SSE_GROUPS}
    timeout = aiohttp.ClientTimeout(total=None, sock_read=None)
    async with aiohttp.ClientSession(timeout=timeout) as session, session.get(
            f"{url}/api/v1beta/events/stream", params=params, headers={"authorization": f"Bearer {token}"}) as response:
        kind = b""
        async for line in response.content:
            if line.startswith(b"event: "):
                kind = line[7:].strip()
                if kind == b"connected":
                    ready.set()
            elif line.startswith(b"data: ") and kind == b"event":
                message = orjson.loads(line[6:])["message"]
                if message.get("run") == run:
                    received[("sse", int(message["n"]))] = time.time()

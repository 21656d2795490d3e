"""WebSocket subscribers in a process of their own, for the live fan-out benches (bench/broker_live.py).

``python bench/_ws_readers.py URL COUNT`` opens COUNT connections to URL, prints ``ready`` once all are
open, and notes for every frame the milliseconds from its ``ts`` (the event's publish instant) to its
receipt. A line on stdin ends the run: it then prints one JSON object, ``{"latencies": [...], "cpu": s}``
(``cpu``: this process's CPU seconds from ``ready`` on), and exits. Several such processes share the
frames' reading when one Python client could not keep up with the offered load.
"""

from __future__ import annotations

import asyncio
import sys
import time

import orjson
from websockets.asyncio.client import connect


async def main(url: str, count: int) -> None:
    latencies: list[float] = []
    sockets = [await connect(url, max_size=None, compression=None) for _ in range(count)]

    async def receive(ws) -> None:
        async for message in ws:
            latencies.append(time.time() * 1000 - orjson.loads(message)["ts"])

    readers = [asyncio.create_task(receive(ws)) for ws in sockets]
    print("ready", flush=True)
    started = time.process_time()
    await asyncio.to_thread(sys.stdin.readline)
    cpu = time.process_time() - started
    for reader in readers:
        reader.cancel()
    await asyncio.gather(*readers, return_exceptions=True)
    for ws in sockets:
        await ws.close()
    sys.stdout.write(orjson.dumps({"latencies": latencies, "cpu": cpu}).decode() + "\n")
    sys.stdout.flush()


if __name__ == "__main__":
    asyncio.run(main(sys.argv[1], int(sys.argv[2])))

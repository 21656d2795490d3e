"""The live fan-out's bare ceiling (bench/broker.py): a ``websockets`` server alone in its process.

It accepts any number of clients on ``127.0.0.1:PORT`` and, from the first connection on, every 10 ms
broadcasts ``RATE / 100`` frames, each a history-item-shaped JSON object stamped with its ``ts`` (ms),
to every client: no database, no Kafka, no authorization, one encode per frame for all clients.

Run: ``python bench/_ws_bare.py PORT RATE`` (stopped by a signal).
"""

from __future__ import annotations

import asyncio
import sys
import time
import uuid

import orjson
from websockets.asyncio.server import broadcast, serve

BLOB = {"carrier": "DHL", "tracking": "JD014600003SE"}


async def main(port: int, rate: int) -> None:
    clients: set = set()

    async def handler(ws) -> None:  # noqa: ANN001
        clients.add(ws)
        try:
            await ws.wait_closed()
        finally:
            clients.discard(ws)

    async with serve(handler, "127.0.0.1", port, compression=None, max_queue=None):
        per_tick = max(1, rate // 100)
        while True:
            started = time.monotonic()
            for _ in range(per_tick if clients else 0):
                frame = orjson.dumps({"id": str(uuid.uuid4()), "topic": "live:a", "type": "tick", "data": BLOB,
                                      "ts": time.time_ns() // 1_000_000}).decode()
                broadcast(clients, frame)
            await asyncio.sleep(max(0.0, 0.01 - (time.monotonic() - started)))


if __name__ == "__main__":
    asyncio.run(main(int(sys.argv[1]), int(sys.argv[2])))

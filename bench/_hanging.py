"""Parts of bench/noisy.py: an HTTPS receiver that answers each request only after a delay, and the
join from nginx's receipts back to each event's Kafka CreateTime per tenant. Not a bench of its own.
"""

from __future__ import annotations

import asyncio
import ssl
import threading
from pathlib import Path

import psycopg

from bench._receiver import free_port

_ANSWER = b"HTTP/1.1 200 OK\r\nContent-Length: 0\r\n\r\n"


class HangingReceiver:
    """A TLS endpoint on loopback (the bench nginx's certificate) that reads each request, then answers 200
    only after ``delay`` seconds: a destination that hangs. Counts the requests it read."""

    def __init__(self, cert_dir: Path, delay: float) -> None:
        self.cert_dir, self.delay = cert_dir, delay
        self.port = free_port()
        self.url = f"https://127.0.0.1:{self.port}/"
        self.requests = 0
        self._loop = asyncio.new_event_loop()
        self._thread = threading.Thread(target=self._loop.run_forever, daemon=True)

    def __enter__(self) -> HangingReceiver:
        context = ssl.create_default_context(ssl.Purpose.CLIENT_AUTH)
        context.load_cert_chain(str(self.cert_dir / "server.pem"), str(self.cert_dir / "server.key"))
        self._thread.start()
        future = asyncio.run_coroutine_threadsafe(
            asyncio.start_server(self._serve, "127.0.0.1", self.port, ssl=context, backlog=1024), self._loop)
        self._server = future.result(10)
        return self

    async def _serve(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        try:
            while True:
                head = await reader.readuntil(b"\r\n\r\n")
                length = next((int(line.split(b":", 1)[1]) for line in head.split(b"\r\n")
                               if line.lower().startswith(b"content-length:")), 0)
                await reader.readexactly(length)
                self.requests += 1
                await asyncio.sleep(self.delay)
                writer.write(_ANSWER)
                await writer.drain()
        except (asyncio.IncompleteReadError, ConnectionError, ssl.SSLError, asyncio.LimitOverrunError):
            pass
        finally:
            writer.close()

    def __exit__(self, *_exc: object) -> None:
        self._loop.call_soon_threadsafe(self._server.close)
        self._loop.call_soon_threadsafe(self._loop.stop)
        self._thread.join(10)


RECEIPT_EVENTS_SQL = """
SELECT j.id::text, j.tenant_id, e.kafka_partition, e.kafka_offset, EXTRACT(EPOCH FROM e.received_at) * 1000,
       (SELECT EXTRACT(EPOCH FROM min(a.attempted_at)) * 1000 FROM delivery_attempts a WHERE a.job_id = j.id)
  FROM delivery_jobs j JOIN event_log e ON e.tenant_id = j.tenant_id AND e.seq = j.event_seq
 WHERE j.id = ANY(%s::uuid[])
"""
STAGES = ("Kafka->stored", "stored->sent", "sent->received")


def by_tenant(dsn: str, receipts: dict[str, float], created_ms: dict[str, dict[tuple[int, int], int]]
              ) -> tuple[dict[str, list[tuple[float, ...]]], dict[str, list[float]]]:
    """Per tenant: (Kafka CreateTime, receipt minus CreateTime, then the three STAGES) in ms of each received
    delivery whose event
    ``created_ms`` knows (each tenant's producer's CreateTimes by (partition, offset): a tenant's events
    are on one topic), and the receipt times of all of its deliveries."""
    ids = {wid[-36:]: wid for wid in receipts}
    with psycopg.connect(dsn) as conn:
        rows = conn.execute(RECEIPT_EVENTS_SQL, (list(ids),)).fetchall()
    latencies: dict[str, list[tuple[float, ...]]] = {}
    received: dict[str, list[float]] = {}
    for job, tenant, partition, offset, stored, sent in rows:
        at = receipts[ids[job]]
        received.setdefault(tenant, []).append(at)
        moment = created_ms.get(tenant, {}).get((partition, offset))
        if moment is not None:
            stages = (float(stored) - moment, float(sent or at) - float(stored), at - float(sent or at))
            latencies.setdefault(tenant, []).append((moment, at - moment, *stages))
    return latencies, received


def p50_p99(values: list[float]) -> tuple[float, float]:
    ordered = sorted(values)
    if not ordered:
        return float("nan"), float("nan")
    return ordered[len(ordered) // 2], ordered[min(len(ordered) - 1, int(len(ordered) * 0.99))]

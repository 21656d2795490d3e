"""The gRPC publisher's per-event CPU in-process (issue 19): no broker, no server, no network.

Times the servicer's own work on the bench's events (``bench/publish.py``'s ``proto_event``: a small
Struct, a timestamp, a resource id) in stages, as CPU µs per event (the best and the median of
``--repeat`` runs; the best is the steadier figure when another process shares the cores):

* **proto**: ``event_from_proto`` (the Struct as JSON, the timestamp, the rules);
* **prepare**: ``hub.publisher.service._prepare`` (id, CloudEvent encode and its check);
* **result**: the answer (``batch_response``: one ``PublishingResult`` per event);
* **total**: the three in one pass, as ``BatchPublishEvents`` runs them (batches of 100);
* **servicer** (``--broker``): ``BatchPublishEvents`` itself, called by 32 asyncio tasks without a
  server, producing to the local broker (a topic prefix of its own, deleted after): the process's
  CPU, every thread (librdkafka's and the delivery reports') included; ``hub grpc`` spends this
  plus gRPC's own.

Robust to a shared machine's noise where ``bench/publish.py``'s wall-clock rates are not: compare
runs of two checkouts interleaved. Run: ``python bench/publish_cpu.py [--events 20000] [--repeat 7] [--broker]``.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import statistics
import sys
import time
import uuid
from collections.abc import Callable
from datetime import UTC, datetime
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from google.protobuf import struct_pb2, timestamp_pb2  # noqa: E402

from hub.cloudevent.encode import attribute_text  # noqa: E402
from hub.grpcapi.publisher import batch_response, event_from_proto, pb  # noqa: E402
from hub.publisher import service  # noqa: E402
from hub.publisher.access import Publisher  # noqa: E402
from hub.publisher.models import PublishOutcome  # noqa: E402

BATCH = 100
OCCURRED = "2024-10-16T14:30:00Z"
PUBLISHER = Publisher("bench-tenant", "bench-subject", frozenset({"*"}))


def proto_event(n: int) -> object:
    """One event as the bench's gRPC client sends it (bench/publish.py)."""
    message = struct_pb2.Struct()
    message.update({"n": n, "run": "cpu"})
    occurred = timestamp_pb2.Timestamp()
    occurred.FromJsonString(OCCURRED)
    return pb.Event(event_type="bench.published", message=message, occurred_at=occurred,
                    resource=pb.EventResource(resource_id=f"/bench/{n % 64}"))


def timed(work: Callable[[], object], events: int, repeat: int) -> tuple[float, float]:
    """(best, median) CPU µs per event of REPEAT runs of WORK."""
    runs = []
    for _ in range(repeat):
        start = time.process_time()
        work()
        runs.append((time.process_time() - start) / events * 1e6)
    return min(runs), statistics.median(runs)


class _Context:
    """What the servicer asks of a call: its metadata (the bearer token)."""

    def __init__(self, token: str) -> None:
        self.metadata = (("authorization", f"Bearer {token}"),)

    def invocation_metadata(self) -> tuple[tuple[str, str], ...]:
        return self.metadata


def servicer_stage(batches: list[list[object]], events: int) -> float:
    """CPU µs per event of BatchPublishEvents from 32 tasks, producing to the local broker under a topic
    prefix of its own (the settings are read afresh: the topic deleted after is never a shared one)."""
    from bench._ingest_setup import delete_kafka
    from hub.auth.tokens import mint_token
    from hub.config import get_settings
    from hub.grpcapi.publisher import EventPublishingService
    from hub.publisher.access import publish_claims
    from hub.publisher.service import publish_topic

    prefix = f"benchcpu{uuid.uuid4().hex[:8]}."
    os.environ["HUB_KAFKA_TOPIC_PREFIX"] = prefix
    get_settings.cache_clear()
    topic = publish_topic()
    assert topic.startswith(prefix), topic
    permissions, claims = publish_claims([], ["*"])
    context = _Context(mint_token(tenant="bench-cpu", permissions=permissions, claims=claims, ttl_seconds=600))
    requests = [pb.BatchPublishEventsRequest(events=batch) for batch in batches]
    servicer = EventPublishingService()

    async def run() -> None:
        queue = list(requests)

        async def client() -> None:
            while queue:
                response = await servicer.BatchPublishEvents(queue.pop(), context)
                assert all(result.success for result in response.results), response.results[0]
        await servicer.BatchPublishEvents(requests[0], context)  # the topic made, the token verified
        start = time.process_time()
        await asyncio.gather(*(client() for _ in range(32)))
        spent.append(time.process_time() - start)

    spent: list[float] = []
    try:
        asyncio.run(run())
    finally:
        delete_kafka([topic], [])
    return spent[0] / events * 1e6


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--events", type=int, default=20_000)
    parser.add_argument("--repeat", type=int, default=7)
    parser.add_argument("--broker", action="store_true", help="also BatchPublishEvents to the local broker")
    args = parser.parse_args()
    messages = [proto_event(n) for n in range(args.events)]
    batches = [messages[i:i + BATCH] for i in range(0, len(messages), BATCH)]
    events = [event_from_proto(message) for message in messages]
    published = attribute_text(datetime.now(UTC))
    success = PublishOutcome(True)

    def total() -> None:
        for batch in batches:
            parsed = [event_from_proto(message) for message in batch]
            service._prepare(PUBLISHER, parsed, published)  # noqa: SLF001
            batch_response(parsed, [success] * len(parsed))

    stages = {
        "proto": lambda: [event_from_proto(message) for message in messages],
        "prepare": lambda: [service._prepare(PUBLISHER, events[i:i + BATCH], published)  # noqa: SLF001
                            for i in range(0, len(events), BATCH)],
        "result": lambda: [batch_response(events[i:i + BATCH], [success] * BATCH) for i in range(0, len(events), BATCH)],
        "total": total,
    }
    for name, work in stages.items():
        best, median = timed(work, args.events, args.repeat)
        print(f"{name:8} best {best:6.1f}  median {median:6.1f} µs/event")
    if args.broker:
        print(f"servicer {servicer_stage(batches, args.events):6.1f} µs/event (CPU of every thread, one run)")


if __name__ == "__main__":
    main()

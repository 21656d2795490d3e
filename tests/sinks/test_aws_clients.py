"""The AWS sinks' client cache: one boto3 client per (service, region, keys), built once even under a burst."""

from __future__ import annotations

import threading
from concurrent.futures import ThreadPoolExecutor

from hub.config import get_settings
from hub.providers.aws.sink import AwsClients, StaticKeys


class CountingClients(AwsClients):
    """Counts real client builds (the build itself is boto3's, unchanged)."""

    def __init__(self) -> None:
        super().__init__(settings=get_settings())
        self.builds = 0
        self.count_lock = threading.Lock()

    def _build(self, service, region, keys):  # noqa: ANN001, ANN202
        with self.count_lock:
            self.builds += 1
        return super()._build(service, region, keys)


def test_a_burst_of_sends_to_a_new_destination_builds_one_client():
    """16 pool threads asking at once for a client of new keys share one build."""
    clients = CountingClients()
    keys = StaticKeys("AKIDBURST", "secret-burst")
    start = threading.Barrier(16)

    def ask(_: int) -> int:
        start.wait()
        return id(clients.client("events", "us-east-1", keys))

    with ThreadPoolExecutor(16) as pool:
        seen = set(pool.map(ask, range(16)))
    assert clients.builds == 1 and len(seen) == 1
    other = clients.client("events", "us-east-1", StaticKeys("AKIDOTHER", "secret-other"))
    assert id(other) not in seen and clients.builds == 2, "other keys get a client of their own"
    clients.close()


def test_a_call_queued_past_its_start_by_is_not_made(override_settings) -> None:
    """N108: an SDK call that a sink thread takes up only after its caller's ``START_BY`` is not made, and the
    SQS sink answers ``NOT_STARTED`` for its deliveries (the engine puts them back untried); a call taken up in
    time, or with no ``START_BY``, is made."""
    import asyncio
    import time
    import uuid

    import pytest

    from hub.providers.sqs.sink import SqsSink
    from hub.sinks.base import NOT_STARTED, START_BY, AttemptResult, NotStarted, PreparedDelivery
    from hub.sinks.vocabulary import SinkKind

    override_settings(sink_io_threads="1")
    sink = SqsSink(settings=get_settings())
    made: list[int] = []

    def send_blocking(batch: list[PreparedDelivery], _started: float) -> list[AttemptResult]:
        made.append(len(batch))
        return [AttemptResult.success()] * len(batch)

    sink._send_blocking = send_blocking
    delivery = PreparedDelivery(delivery_id="d-1", job_id=None, tenant_id="t-1", subscription_id=uuid.uuid4(),
                                sink_kind=SinkKind.sqs, endpoint="https://sqs.us-east-1.amazonaws.com/1/q",
                                body=b"{}", attributes={"id": "e-1"},
                                credential={"accessKeyId": "AKID", "secretAccessKey": "secret"})

    async def go() -> list:
        clients = sink._aws
        busy = asyncio.ensure_future(clients.run(lambda: time.sleep(0.6)))  # the one thread, taken
        await asyncio.sleep(0.05)
        START_BY.set(time.monotonic() + 0.2)
        queued = await sink.deliver_many([delivery])
        with pytest.raises(NotStarted):
            await clients.run(lambda: made.append(-1))
        START_BY.set(time.monotonic() + 30)
        in_time = await clients.run(lambda: "made")
        await busy
        return [queued, in_time]

    queued, in_time = asyncio.run(go())
    asyncio.run(sink.close())
    assert queued == [NOT_STARTED] and made == [], "the queued call was not made"
    assert in_time == "made"

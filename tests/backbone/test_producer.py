"""The backbone producer against the real broker: durable records, an awaitable publish, a bounded wait."""

from __future__ import annotations

import asyncio
import time
import uuid

import pytest
from confluent_kafka import Producer

from hub.backbone.producer import BackboneProducer, shared_producer
from hub.cloudevent.decode import Event, decode_record
from hub.cloudevent.encode import BINARY, STRUCTURED, encode
from hub.kafka import admin_client, base_config, make_consumer, make_producer

MAX = 1_048_576


def _record(tenant: str, n: int, mode: str = BINARY):
    attributes = {"specversion": "1.0", "id": f"e-{n}", "source": "ledger", "type": "t.posted", "tenantid": tenant,
                  "partitionkey": f"acct-{n % 3}"}
    return encode(attributes, {"n": n}, mode=mode, max_bytes=MAX)


def _read(topic: str, count: int, seconds: float = 30.0) -> list[Event]:
    consumer = make_consumer(f"test-backbone-{uuid.uuid4().hex[:8]}")
    consumer.subscribe([topic])
    events: list[Event] = []
    try:
        deadline = time.monotonic() + seconds
        while len(events) < count and time.monotonic() < deadline:
            message = consumer.poll(0.5)
            if message is not None and message.error() is None:
                events.append(decode_record(message, max_bytes=MAX))
    finally:
        consumer.close()
    return events


@pytest.fixture
def topic():
    name = f"test.backbone.{uuid.uuid4().hex[:8]}"
    yield name
    admin_client().delete_topics([name])


def test_published_records_are_durable_and_read_back_where_the_result_says(topic) -> None:
    records = [_record("t-1", n, BINARY if n % 2 else STRUCTURED) for n in range(6)]
    result = shared_producer().publish(topic, records, timeout_seconds=30)
    assert result.durable, result
    assert [landed.index for landed in result.landed] == list(range(6))
    events = _read(topic, 6)
    assert sorted(event.ce_id for event in events) == [f"e-{n}" for n in range(6)]
    where = {(event.partition, event.offset): event.ce_id for event in events}
    for landed in result.landed:
        assert where[(landed.partition, landed.offset)] == f"e-{landed.index}"


def test_an_async_publish_does_not_block_the_event_loop(topic) -> None:
    producer = shared_producer()
    producer.publish(topic, [_record("t-2", 99)], timeout_seconds=30)  # the topic exists from here on

    async def scenario():
        ticks = 0
        stop = asyncio.Event()

        async def ticker():
            nonlocal ticks
            while not stop.is_set():
                ticks += 1
                await asyncio.sleep(0.001)

        ticking = asyncio.create_task(ticker())
        results = await asyncio.gather(*(producer.publish_async(topic, [_record("t-2", n)], timeout_seconds=30)
                                         for n in range(20)))
        stop.set()
        await ticking
        return results, ticks

    results, ticks = asyncio.run(scenario())
    assert all(result.durable for result in results)
    assert ticks > 0  # the loop ran while the reports were awaited
    assert sorted(e.ce_id for e in _read(topic, 21)) == sorted([f"e-{n}" for n in range(20)] + ["e-99"])


def test_a_broker_that_never_answers_ends_the_wait_with_a_result_not_an_exception(topic) -> None:
    # A port nothing listens on: the records stay queued, the wait is bounded, nothing is raised.
    silent = Producer({**base_config(), "bootstrap.servers": "127.0.0.1:9", "acks": "all",
                       "enable.idempotence": True, "message.timeout.ms": 60_000})
    producer = BackboneProducer(silent)
    started = time.monotonic()
    result = producer.publish(topic, [_record("t-3", 1), _record("t-3", 2)], timeout_seconds=1.0)
    assert time.monotonic() - started < 5
    assert not result.durable and result.unconfirmed == (0, 1) and not result.landed
    assert "did not take 2 of 2 records in time" in result.describe_failure()

    async_result = asyncio.run(producer.publish_async(topic, [_record("t-3", 3)], timeout_seconds=0.5))
    assert async_result.unconfirmed == (0,)
    silent.purge()
    producer.close(0.1)


def test_a_record_the_broker_refuses_is_reported_refused(topic) -> None:
    producer = BackboneProducer(make_producer(**{"message.max.bytes": 2_000}))
    big = encode({"specversion": "1.0", "id": "big", "source": "ledger", "type": "t", "tenantid": "t-4"},
                 {"pad": "x" * 5_000}, max_bytes=MAX)
    result = producer.publish(topic, [_record("t-4", 1), big], timeout_seconds=30)
    producer.close(5)
    assert [landed.index for landed in result.landed] == [0]
    assert [refused.index for refused in result.refused] == [1] and not result.durable
    assert "did not take 1 of 2 records" in result.describe_failure()


def test_a_topic_that_cannot_be_checked_refuses_every_record_as_retriable(override_settings) -> None:
    """No admin answer (the broker is unreachable): a result saying nothing is durable, not an exception."""
    override_settings(kafka_bootstrap="127.0.0.1:9")
    admin_client.cache_clear()
    producer = BackboneProducer(Producer({**base_config(), "message.timeout.ms": 1_000}))
    try:
        result = producer.publish("test.backbone.unreachable", [_record("t-5", 1), _record("t-5", 2)],
                                  timeout_seconds=1.0)
        async_result = asyncio.run(producer.publish_async("test.backbone.unreachable", [_record("t-5", 3)]))
    finally:
        admin_client.cache_clear()
        producer.close(0.1)
    assert not result.durable and [r.index for r in result.refused] == [0, 1]
    assert all(r.retriable and "could not be checked or created" in r.error for r in result.refused)
    assert [r.index for r in async_result.refused] == [0]


class _FakeMessage:
    def __init__(self, partition: int, offset: int) -> None:
        self._where = (partition, offset)

    def partition(self) -> int:
        return self._where[0]

    def offset(self) -> int:
        return self._where[1]


class _FakeError:
    def str(self) -> str:  # noqa: A003 (KafkaError's name)
        return "broker said no"

    def retriable(self) -> bool:
        return False


class _FakeClient:
    """Holds each record's delivery callback; the test answers them (or not) by hand. The third
    record's produce() raises as a full local queue does."""

    def __init__(self) -> None:
        self.callbacks: list = []

    def produce(self, topic: str, **kwargs) -> None:  # noqa: ANN003
        if len(self.callbacks) == 2 and not getattr(self, "refused", False):
            self.refused = True
            raise BufferError("full")
        self.callbacks.append(kwargs["on_delivery"])

    def poll(self, seconds: float) -> int:
        time.sleep(seconds)
        return 0

    def flush(self, seconds: float) -> int:
        return 0


def test_the_result_says_landed_refused_and_unconfirmed_by_index_as_of_the_wait() -> None:
    """Reports answered out of order, one refusal by the broker and one by the local queue, one
    record unanswered when the wait ends, and a report after it that the result does not count."""
    client = _FakeClient()
    producer = BackboneProducer(client)
    producer._ready_topics.add("t")  # noqa: SLF001 (no admin client here)
    try:
        async def publish():  # noqa: ANN202
            task = asyncio.ensure_future(producer.publish_async("t", [_record("t-6", n) for n in range(5)],
                                                                timeout_seconds=0.5))
            await asyncio.sleep(0.05)
            client.callbacks[3](None, _FakeMessage(2, 40))
            client.callbacks[0](None, _FakeMessage(1, 7))
            client.callbacks[1](_FakeError(), None)
            return await task
        result = asyncio.run(publish())
        client.callbacks[2](None, _FakeMessage(0, 1))  # late: after the wait
    finally:
        producer.close(0.1)
    assert [(o.index, o.partition, o.offset) for o in result.landed] == [(0, 1, 7), (4, 2, 40)]
    assert [(o.index, o.error, o.retriable) for o in result.refused] == [
        (1, "broker said no", False), (2, "the local produce queue is full", True)]
    assert result.unconfirmed == (3,)
    assert "did not take 3 of 5 records" in result.describe_failure()


def test_a_batch_completes_when_its_last_report_comes() -> None:
    client = _FakeClient()
    client.refused = True  # no refusal here
    producer = BackboneProducer(client)
    producer._ready_topics.add("t")  # noqa: SLF001
    try:
        async def publish():  # noqa: ANN202
            task = asyncio.ensure_future(producer.publish_async("t", [_record("t-7", n) for n in range(3)],
                                                                timeout_seconds=30))
            await asyncio.sleep(0.05)
            for offset, callback in enumerate(reversed(client.callbacks)):
                callback(None, _FakeMessage(0, offset))
            return await task
        started = time.monotonic()
        result = asyncio.run(publish())
    finally:
        producer.close(0.1)
    assert time.monotonic() - started < 5 and result.durable
    assert [(o.index, o.offset) for o in result.landed] == [(0, 2), (1, 1), (2, 0)]


def test_an_async_publish_makes_no_thread_event(monkeypatch: pytest.MonkeyPatch) -> None:
    """The event loop's wait is a future: no lock or condition is built per call (N100), and the
    blocking publish still waits on its own event."""
    import threading

    client = _FakeClient()
    producer = BackboneProducer(client)
    producer._ready_topics.add("t")  # noqa: SLF001
    made: list[object] = []
    real_event = threading.Event

    def counting_event() -> threading.Event:
        made.append(object())
        return real_event()

    monkeypatch.setattr(threading, "Event", counting_event)
    try:
        async def publish():  # noqa: ANN202
            task = asyncio.ensure_future(producer.publish_async("t", [_record("t-8", 0)], timeout_seconds=30))
            await asyncio.sleep(0.05)
            client.callbacks[0](None, _FakeMessage(0, 5))
            return await task
        result = asyncio.run(publish())
        assert result.durable and not made
        client.callbacks.clear()
        threading.Timer(0.05, lambda: client.callbacks[0](None, _FakeMessage(0, 6))).start()
        before = len(made)  # the timer's own events
        assert producer.publish("t", [_record("t-8", 1)], timeout_seconds=30).durable and len(made) == before + 1
    finally:
        producer.close(0.1)


def test_an_async_publish_leaves_no_cyclic_garbage() -> None:
    """A publish's batch, future and reports are freed by reference counting (N110): at 500 publishes/s
    each one left for the cyclic collector was about a dozen objects and a Kafka message."""
    import gc

    client = _FakeClient()
    producer = BackboneProducer(client)
    producer._ready_topics.add("t")  # noqa: SLF001

    async def publish(n: int):  # noqa: ANN202
        task = asyncio.ensure_future(producer.publish_async("t", [_record("t-8", n)], timeout_seconds=30))
        await asyncio.sleep(0)
        client.callbacks.pop()(None, _FakeMessage(0, n))
        return await task

    async def publish_many() -> None:
        for n in range(20):
            assert (await publish(n)).durable

    try:
        gc.collect()
        gc.disable()
        gc.set_debug(gc.DEBUG_SAVEALL)
        asyncio.run(publish_many())
        gc.collect()
        leftovers = [o for o in gc.garbage if type(o).__module__ == "hub.backbone.producer"]
    finally:
        gc.set_debug(0)
        gc.garbage.clear()
        gc.enable()
        producer.close(0.1)
    assert leftovers == []

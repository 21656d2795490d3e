"""The run's consumer-queue client (seed 000): a durable queue of the run's tenant, consumed over the hub's
gRPC ``ConsumeDurableEventsWithAcks``, each event acknowledged as it arrives. A ``consumer_disconnect``
fault makes the client cut its stream right after sending an ack (the ack may or may not reach the
hub), and reconnect: every event must still be acknowledged at least once, none left in the queue."""

from __future__ import annotations

import queue
import threading
import time
import uuid
from collections import Counter
from collections.abc import Iterator
from typing import Any

import grpc
import pika

from hub.auth.tokens import mint_token
from hub.consumer.access import consumer_claims
from hub.consumer.topology import DEAD_LETTER_QUEUE
from hub.grpcapi.stubs import consumer_stubs

pb, pb_grpc = consumer_stubs()


def consumer_token(tenant: str) -> str:
    granted, claims = consumer_claims([], None)
    return mint_token(tenant=tenant, permissions=granted, claims=claims, subject="chaos@example.com", ttl_seconds=7200)


def create_queue(address: str, token: str, event_type: str) -> str:
    """A durable queue of TOKEN's tenant taking every event of EVENT_TYPE; returns its id."""
    with grpc.insecure_channel(address) as channel:
        stub = pb_grpc.EventConsumerServiceStub(channel)
        request = pb.CreateDurableQueueRequest(queue_id=f"chaos-{uuid.uuid4().hex[:10]}")
        request.filter_groups.append(pb.FilterGroup(event_type=event_type))
        return stub.CreateDurableQueue(request, metadata=[("authorization", f"Bearer {token}")],
                                       timeout=30).queue_id


class QueueConsumer(threading.Thread):
    """Consumes the queue with acks until stopped, reconnecting after every end of its stream; counts the
    acks it sent by CloudEvent id (the producer puts the id in the event's data)."""

    def __init__(self, address: str, token: str, queue_id: str) -> None:
        super().__init__(daemon=True)
        self.address, self.token, self.queue_id = address, token, queue_id
        self.acked: Counter[str] = Counter()
        self.ends: Counter[str] = Counter()  # how each stream ended (a status code name, or "cut")
        self.cut = threading.Event()  # set by a fault: cut the stream right after the next ack
        self.stopping = threading.Event()
        self.lock = threading.Lock()
        self.call: Any = None
        self.last_ack = 0.0

    def run(self) -> None:
        with grpc.insecure_channel(self.address) as channel:
            stub = pb_grpc.EventConsumerServiceStub(channel)
            while not self.stopping.is_set():
                self.ends[self.consume(stub)] += 1
                self.stopping.wait(0.5)  # a reconnecting client's pause

    def consume(self, stub: Any) -> str:
        """One stream, from its opening until it ends; returns how it ended."""
        requests: queue.Queue[Any] = queue.Queue()
        requests.put(pb.ConsumeDurableEventsWithAcksRequest(queue_id=self.queue_id))
        self.call = stub.ConsumeDurableEventsWithAcks(_until_none(requests),
                                                      metadata=[("authorization", f"Bearer {self.token}")])
        try:
            for response in self.call:
                ce_id = str(response.events[0].message["ceId"])
                requests.put(pb.ConsumeDurableEventsWithAcksRequest(ack_delivery_tags=[response.delivery_tag]))
                with self.lock:
                    self.acked[ce_id] += 1
                self.last_ack = time.monotonic()
                if self.cut.is_set():  # mid-ack: the ack is on its way as the stream goes
                    self.cut.clear()
                    self.call.cancel()
                    return "cut"
            return "OK"
        except grpc.RpcError as exc:
            if exc.code() is grpc.StatusCode.CANCELLED:
                return "stopped" if self.stopping.is_set() else "cut"
            return exc.code().name
        finally:
            requests.put(None)

    def acks(self) -> Counter[str]:
        with self.lock:
            return Counter(self.acked)

    def halt(self, quiet: float = 2.0, limit: float = 15.0) -> None:
        """Stop once no ack was sent for QUIET seconds (LIMIT at most), so the last acks reach the hub
        before the stream is cancelled."""
        deadline = time.monotonic() + limit
        while time.monotonic() < min(deadline, self.last_ack + quiet):
            time.sleep(0.2)
        self.stopping.set()
        if self.call is not None:
            self.call.cancel()
        self.join(timeout=30)


def _until_none(requests: queue.Queue[Any]) -> Iterator[Any]:
    while (request := requests.get()) is not None:
        yield request


def left_in_queues(url: str, queue_id: str) -> tuple[int, int]:
    """(messages still in the consumer queue, messages in the dead-letter queue), with no consumer attached."""
    connection = pika.BlockingConnection(pika.URLParameters(url))
    try:
        channel = connection.channel()
        left = channel.queue_declare(f"hub.cq.{queue_id}", passive=True).method.message_count
        dead = channel.queue_declare(DEAD_LETTER_QUEUE, passive=True).method.message_count
        return left, dead
    finally:
        connection.close()

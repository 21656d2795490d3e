"""The run's traffic: a producer at a steady rate (the backbone producer), a pull reader and an
API prober, each a thread recording what it saw for the ledger."""

from __future__ import annotations

import itertools
import threading
import time
import uuid
from dataclasses import dataclass, field

import httpx

from hub.backbone.producer import shared_producer
from hub.devtools.send import SendRequest, build_message

EVENT_TYPE = "transaction.posted"
SOURCE = "ledger"
# The events' ordering keys (``partitionkey``, so the Kafka record key too): one of this many, in turn.
KEYS = 1000


@dataclass
class ApiLog:
    """Every API answer: (monotonic time, port, status); a connection failure is status 0."""

    entries: list[tuple[float, int, int]] = field(default_factory=list)
    lock: threading.Lock = field(default_factory=threading.Lock)

    def note(self, port: int, status: int) -> None:
        with self.lock:
            self.entries.append((time.monotonic(), port, status))


class Worker(threading.Thread):
    """A daemon thread that runs ``step`` until stopped."""

    def __init__(self) -> None:
        super().__init__(daemon=True)
        self.stopping = threading.Event()

    def run(self) -> None:
        while not self.stopping.is_set():
            self.step()

    def step(self) -> None:
        raise NotImplementedError

    def halt(self) -> None:
        self.stopping.set()
        self.join(timeout=60)


class Producer(Worker):
    """RATE events/s to TOPIC in small batches; an event not acknowledged is produced again (same id)."""

    def __init__(self, topic: str, tenant: str, rate: float, batch: int = 10) -> None:
        super().__init__()
        self.topic, self.tenant, self.rate, self.batch = topic, tenant, rate, batch
        self.acked: set[str] = set()
        self.unacked: list[str] = []
        self.failures = 0
        self.keys: dict[str, str] = {}  # each event's ordering key, kept for its re-sends
        self.produced = itertools.count()

    def step(self) -> None:
        started = time.monotonic()
        ids = self.unacked + [str(uuid.uuid4()) for _ in range(self.batch)]
        self.unacked = self.publish(ids)
        self.stopping.wait(max(0.0, self.batch / self.rate - (time.monotonic() - started)))

    def publish(self, ids: list[str]) -> list[str]:
        """Produce IDS once; returns the ids the broker did not acknowledge."""
        # The id is in the data too: an EventBridge destination receives the data alone (as ``detail``).
        records = [build_message(SendRequest(self.tenant, SOURCE, EVENT_TYPE, {"n": n, "ceId": ce_id}, ce_id=ce_id,
                                             key=self.key_of(ce_id)), ce_id)
                   for n, ce_id in enumerate(ids)]
        result = shared_producer().publish(self.topic, records, timeout_seconds=10)
        landed = {landed.index for landed in result.landed}
        self.acked.update(ids[i] for i in landed)
        if len(landed) < len(ids):
            self.failures += 1
        return [ce_id for i, ce_id in enumerate(ids) if i not in landed]

    def key_of(self, ce_id: str) -> str:
        if ce_id not in self.keys:
            self.keys[ce_id] = f"account-{next(self.produced) % KEYS}"
        return self.keys[ce_id]

    def finish(self, timeout: float = 120.0) -> None:
        """Stop producing new events and keep producing the unacknowledged ones until acknowledged."""
        self.halt()
        deadline = time.monotonic() + timeout
        while self.unacked and time.monotonic() < deadline:
            self.unacked = self.publish(self.unacked)


class PullReader(Worker):
    """Reads the pull subscription through the APIs in turn, with an explicit ``after`` cursor, so a
    page lost to a killed API is read again; records the (seq, ceId) pairs in the order seen."""

    def __init__(self, ports: list[int], token: str, subscription: str, log: ApiLog) -> None:
        super().__init__()
        self.ports, self.token, self.subscription, self.log = ports, token, subscription, log
        self.seen: list[tuple[int, str]] = []
        self.turn = itertools.cycle(range(len(ports)))
        self.caught_up = False
        # One client for the run: a client per request builds an SSL context each time, CPU the
        # runner's receivers need (plain http here, but httpx makes the context regardless).
        self.client = httpx.Client(timeout=5, headers={"Authorization": f"Bearer {token}"})

    def step(self) -> None:
        port = self.ports[next(self.turn)]
        params = {"subscription_id": self.subscription, "limit": "200"}
        if self.seen:
            params["after"] = str(self.seen[-1][0])
        try:
            response = self.client.get(f"http://127.0.0.1:{port}/v1/events", params=params)
        except httpx.HTTPError:
            self.log.note(port, 0)
            self.stopping.wait(0.2)
            return
        self.log.note(port, response.status_code)
        if response.status_code != 200:
            self.stopping.wait(0.2)
            return
        events = response.json()["events"]
        self.seen.extend((event["seq"], event["ceId"]) for event in events)
        self.caught_up = not events and response.headers.get("X-Pull-Caught-Up") == "true"
        if not events:
            self.stopping.wait(0.3)


class ApiProber(Worker):
    """``GET /v1/subscriptions`` on every API, a few times a second."""

    def __init__(self, ports: list[int], token: str, log: ApiLog) -> None:
        super().__init__()
        self.ports, self.token, self.log = ports, token, log
        self.client = httpx.Client(timeout=5, headers={"Authorization": f"Bearer {token}"})

    def step(self) -> None:
        for port in self.ports:
            try:
                status = self.client.get(f"http://127.0.0.1:{port}/v1/subscriptions").status_code
            except httpx.HTTPError:
                status = 0
            self.log.note(port, status)
        self.stopping.wait(0.25)

"""The run's AWS destinations on a moto server of its own: an SQS queue and an EventBridge bus whose
rule copies every event to a tap queue. Both queues are read (and emptied) while the run goes on.

moto runs as a child process, not as a thread of the runner: its request handling is CPU-bound and
would otherwise hold the runner's GIL against the webhook receivers served from the same process
(their answers then miss the hub's timeout: a harness artefact, not a hub fault). Its queues are
emptied as they fill, and moto's per-message walk of the whole queue is patched out
(chaos.motoserver): a queue of thousands of messages otherwise makes every send and receive slow.
"""

from __future__ import annotations

import json
import subprocess
import sys
import threading
import time
from collections import Counter
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import httpx

from chaos.ordering import Receipts
from devkit.destinations import aws, free_port
from devkit.processes import stop

ROOT = Path(__file__).resolve().parent.parent

# How each queue's message body names its CloudEvent: SQS carries the structured event, the
# EventBridge tap the bus's envelope whose ``detail`` is the event's data (the producer puts the id there).
Key = Callable[[dict[str, Any]], str]


def sqs_key(body: dict[str, Any]) -> str:
    return str(body["id"])


def eventbridge_key(body: dict[str, Any]) -> str:
    return str(body["detail"]["ceId"])


@contextmanager
def moto_process(folder: Path, timeout: float = 30.0) -> Iterator[str]:
    """A moto server in a child process on a free loopback port (its log in FOLDER); yields its URL."""
    port = free_port()
    url = f"http://127.0.0.1:{port}"
    with (folder / "moto.log").open("ab") as log:
        child = subprocess.Popen([sys.executable, "-m", "chaos.motoserver", "-H", "127.0.0.1", "-p", str(port)],
                                 cwd=ROOT, stdout=log, stderr=subprocess.STDOUT)
    try:
        deadline = time.monotonic() + timeout
        while True:
            try:
                if httpx.get(f"{url}/moto-api/", timeout=1).status_code == 200:
                    break
            except httpx.HTTPError:
                pass
            if child.poll() is not None or time.monotonic() > deadline:
                raise RuntimeError(f"the moto server did not come up (see {folder / 'moto.log'})")
            time.sleep(0.2)
        yield url
    finally:
        stop(child, timeout=10)


def moto_timings(url: str) -> dict[str, Any]:
    """What the moto server at URL took per call, by action, and the most calls it held at once
    (chaos.motoserver.Timings); empty when it did not answer."""
    try:
        return dict(httpx.get(f"{url}/chaos-timings", timeout=30).json())
    except (httpx.HTTPError, ValueError):
        return {}


def timings_line(timings: dict[str, Any]) -> str:
    """moto's own time for the sends and receives, as one ledger figure."""
    actions = timings.get("actions", {})
    parts = [f"{name} {figures['calls']} calls p50 {figures['p50']} s p99 {figures['p99']} s"
             for name, figures in sorted(actions.items()) if name in ("SendMessageBatch", "SendMessage", "PutEvents")]
    return "; ".join(parts) + f"; at most {timings.get('busiest', 0)} at once" if parts else "not measured"


# Readers per queue: one reader's receive-then-delete is bound by moto's answer time, not its CPU.
# With the machine loaded (the hub, moto and the receivers share two cores), one reader took 50-100 ms
# per ten messages and fell behind a 200 events/s queue: tens of thousands left to read at the end.
READERS = 4
IDLE_PAUSE_SECONDS = 0.1


class QueueTap:
    """Reads QUEUE continuously with a few readers (receive, then delete), counting each message's
    CloudEvent id. A FIFO queue's readers keep each group's order: moto hands out a group's next
    message only once the one before it is deleted, and a reader notes a message before deleting it."""

    def __init__(self, queue_url: str, key: Key, receipts: Receipts | None = None, readers: int = READERS) -> None:
        self.queue_url, self.key = queue_url, key
        self.receipts = receipts  # an ordered (FIFO) queue's: each message with its key, in arrival order
        self.got: Counter[str] = Counter()
        self.errors = 0
        self.stopping = threading.Event()
        self.lock = threading.Lock()
        self.threads = [threading.Thread(target=self._read_on, daemon=True) for _ in range(max(1, readers))]

    def start(self) -> None:
        for thread in self.threads:
            thread.start()

    def _read_on(self) -> None:
        # Short polls, a pause when empty: a long poll sits in moto on the queue's condition, and every
        # message sent wakes each waiting reader to take the queue's lock again (a convoy the hub's sends
        # then queue behind).
        sqs = aws("sqs")
        while not self.stopping.is_set():
            try:
                if not self.read_once(sqs, wait_seconds=0):
                    self.stopping.wait(IDLE_PAUSE_SECONDS)
            except Exception:  # noqa: BLE001 - a failed read is tried again; the count says how often
                with self.lock:
                    self.errors += 1
                self.stopping.wait(0.5)

    def read_once(self, sqs: Any, wait_seconds: int) -> int:
        """One receive (up to 10 messages) and the delete of what it got; returns how many."""
        answer = sqs.receive_message(QueueUrl=self.queue_url, MaxNumberOfMessages=10, WaitTimeSeconds=wait_seconds,
                                     VisibilityTimeout=60)
        messages = answer.get("Messages", [])
        with self.lock:
            self.got.update(self.key(json.loads(message["Body"])) for message in messages)
        if self.receipts is not None:
            for message in messages:
                self.receipts.note(message["Body"].encode())
        if messages:
            sqs.delete_message_batch(QueueUrl=self.queue_url, Entries=[
                {"Id": str(n), "ReceiptHandle": message["ReceiptHandle"]} for n, message in enumerate(messages)])
        return len(messages)

    def _read_rest(self) -> None:
        """Read until two answers in a row are empty."""
        sqs, empty = aws("sqs"), 0
        while empty < 2:
            empty = 0 if self.read_once(sqs, wait_seconds=1) else empty + 1

    def received(self) -> Counter[str]:
        """Stop the background reads, read what is left (every reader at once) until each sees two
        empty answers, and return every count."""
        self.stopping.set()
        for thread in self.threads:
            thread.join(timeout=30)
        rest = [threading.Thread(target=self._read_rest, daemon=True) for _ in self.threads]
        for thread in rest:
            thread.start()
        for thread in rest:
            thread.join()
        with self.lock:
            return Counter(self.got)

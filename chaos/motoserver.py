"""``python -m chaos.motoserver``: moto's server (same arguments) for the chaos run, with the SQS
queue counters made constant-time and a batch delete made one pass.

moto computes a queue's ``Approximate*`` counters by walking every message, and it reads them on
every message sent or received (``Queue.attributes``, for the deduplication setting and the
retention period), so each send and each receive costs the queue's length: thousands of messages
make moto, not the hub, the bottleneck and the runs' timeouts its artefact. Nothing in the run reads
the counters, and AWS's own are approximate, so here they are the queue's length and zero.

moto deletes a batch message by message, and each delete walks the whole queue twice: at 200 events/s
(three queues read back by taps) a backlog of a few thousand messages made every batch delete cost
seconds, and the backlog only grew. Here a batch delete walks the queue only until it has found its
messages, and a receive walks the queue only until it has its messages (moto builds the list of every visible message first).

moto's EventBridge builds a new JSONPath parser (a yacc table) for each path of a target's input map
on every event it routes: a fifth of the server's time at 200 events/s. The parsed paths are reused
here; a parsed path is read-only. moto also lists its own package folder on disk for every request it
routes; that list is read once here. A FIFO queue's deduplication compares each new message with every
message in the queue; here it is a lookup by id. A receive checks each message's retention through the queue's
whole attribute map, built anew per message; here it reads the one attribute. The request log line per call goes too. Together these cut the
server's CPU per routed event from about 8 ms to under 3 ms. The server is waitress, not werkzeug (see ``serve``).
"""

from __future__ import annotations

import argparse
import functools
import json
import logging
import os
import threading
import time
from collections.abc import Iterator
from typing import Any

import jsonpath_ng.ext
import waitress
import moto.sqs.models
from moto import backends
from moto.core.base_backend import BackendDict
from moto.core.utils import unix_time
from moto.server import DomainDispatcherApplication, create_backend_app
from moto.sqs.models import DEDUPLICATION_TIME_IN_SECONDS, Queue, SQSBackend

# Request threads: the hub's senders (``HUB_SINK_IO_THREADS`` per delivery process) and the taps'
# readers. More threads than that only queue on the queues' locks, each hand-over waiting for the
# interpreter lock.
THREADS = 32

Queue.approximate_number_of_messages = property(lambda queue: len(queue._messages))  # type: ignore[assignment]
Queue.approximate_number_of_messages_not_visible = property(lambda _queue: 0)  # type: ignore[assignment]
Queue.approximate_number_of_messages_delayed = property(lambda _queue: 0)  # type: ignore[assignment]



class VisibleMessages:
    """A queue's visible, undelayed messages, walked lazily: a receive stops at the tenth it takes."""

    def __init__(self, queue: Queue) -> None:
        self.queue = queue

    def __iter__(self) -> Iterator[Any]:
        return (message for message in list(self.queue._messages) if message.visible and not message.delayed)

    def __bool__(self) -> bool:
        return next(iter(self), None) is not None


Queue.messages = property(VisibleMessages)  # type: ignore[assignment]


def delete_message_batch(self: SQSBackend, queue_name: str,
                         receipts: list[dict[str, Any]]) -> tuple[list[str], list[dict[str, Any]]]:
    """moto's ``delete_message_batch``, walking the queue only until every handle's message is found (a
    reader deletes what it just received, near the front; moto walks the whole queue twice per message):
    the same answers (an already deleted handle succeeds again; an unknown one is ``ReceiptHandleIsInvalid``)."""
    queue = self.get_queue(queue_name)
    wanted = {receipt["ReceiptHandle"]: receipt["Id"] for receipt in receipts}
    with queue._messages_lock:  # a send appends under it: none may land between the walk and the new list
        messages, missing, found = queue._messages, set(wanted), []
        walked = len(messages)
        for index, message in enumerate(messages):
            if not missing.isdisjoint(message.all_receipt_handles):
                found.append(index)
                missing.difference_update(message.all_receipt_handles)
                if not missing:
                    walked = index + 1
                    break
        if found:
            gone = set(found)
            for index in found:
                queue.pending_messages.discard(messages[index])
                queue.deleted_messages.update(messages[index].all_receipt_handles)
            queue._messages = [m for i, m in enumerate(messages[:walked]) if i not in gone] + messages[walked:]
    success, errors = [], []
    for handle, entry_id in wanted.items():
        if handle in queue.deleted_messages:
            success.append(entry_id)
        else:
            errors.append({"Id": entry_id, "SenderFault": True, "Code": "ReceiptHandleIsInvalid",
                           "Message": f'The input receipt handle "{handle}" is not a valid receipt handle.'})
    return success, errors


SQSBackend.delete_message_batch = delete_message_batch  # type: ignore[method-assign]


def within_retention(self: SQSBackend, queue_name: str, message: Any) -> bool:
    """moto's retention check on receive, reading only the retention period."""
    period = int(self.get_queue(queue_name).message_retention_period)
    return period + message.sent_timestamp / 1000 > unix_time()


SQSBackend.is_message_valid_based_on_retention_period = within_retention  # type: ignore[method-assign]

_add_message = Queue.add_message


def add_message(self: Queue, message: Any) -> None:
    """moto's ``add_message`` with a FIFO queue's deduplication looked up by id, not by comparing the new
    message with every message in the queue (the queue's length per send: at 200 events/s, a third of the
    server's time). As on AWS, an id is remembered for the deduplication interval from its first send,
    whether or not that message was read and deleted since."""
    if not self.fifo_queue or not message.deduplication_id or self.lambda_event_source_mappings:
        _add_message(self, message)
        return
    seen = self.__dict__.setdefault("chaos_deduplication", {})
    first = seen.get(message.deduplication_id)
    if first is not None and (message.sent_timestamp - first) / 1000 < DEDUPLICATION_TIME_IN_SECONDS:
        return
    seen[message.deduplication_id] = message.sent_timestamp
    with self._messages_lock:
        self._messages.append(message)
        self._messages_lock.notify_all()


Queue.add_message = add_message  # type: ignore[method-assign]

_receive_message = SQSBackend.receive_message


def receive_message(self: SQSBackend, queue_name: str, *args: Any, **kwargs: Any) -> Any:
    """moto's ``receive_message``, one at a time per queue. moto checks that a message is visible and
    then marks it received without a lock, so two readers of one queue could both be handed it (a
    FIFO queue's too): a duplicate that AWS does not make, and that the run's ledger would count."""
    lock = self.get_queue(queue_name).__dict__.setdefault("chaos_receive_lock", threading.Lock())
    with lock:
        return _receive_message(self, queue_name, *args, **kwargs)


SQSBackend.receive_message = receive_message  # type: ignore[method-assign]

_create_account_backend = BackendDict._create_account_specific_backend


def create_account_backend_once(self: BackendDict, account_id: str) -> None:
    """moto looks an account's backend up through a method that takes one process-wide lock on every
    request (a third of the server's samples at 200 events/s, its threads queued on it); an account built
    once (and registered by that call) is looked up here without it."""
    if not dict.__contains__(self, account_id):
        _create_account_backend(self, account_id)


BackendDict._create_account_specific_backend = create_account_backend_once  # type: ignore[method-assign]
# A queue's attribute map turns each attribute's name into a field name with a regular expression, and
# moto builds the map several times per message sent.
moto.sqs.models.camelcase_to_underscores = functools.lru_cache(maxsize=256)(moto.sqs.models.camelcase_to_underscores)

_MOTO_MODULES = tuple(backends.list_of_moto_modules())
backends.list_of_moto_modules = lambda: _MOTO_MODULES  # type: ignore[assignment]

# moto imports ``parse`` from this module inside each call, so the cached one is what it finds.
jsonpath_ng.ext.parse = functools.lru_cache(maxsize=256)(jsonpath_ng.ext.parse)

class Timings:
    """How long moto itself took per call, by action (``X-Amz-Target``, or the query's ``Action``), and how
    many calls it held at once: served as JSON on ``GET /chaos-timings``. The hub's own figure for a send
    also holds its wait for one of its sink's threads and the connection; this one is moto's alone."""

    def __init__(self, app: Any) -> None:
        self.app, self.lock = app, threading.Lock()
        self.calls: dict[str, list[float]] = {}
        self.busy = self.busiest = 0

    def __call__(self, environ: dict[str, Any], start_response: Any) -> Any:
        if environ.get("PATH_INFO") == "/chaos-timings":
            start_response("200 OK", [("Content-Type", "application/json")])
            return [json.dumps(self.summary()).encode()]
        action = (environ.get("HTTP_X_AMZ_TARGET") or environ.get("QUERY_STRING", "") or "other").split(".")[-1]
        began = time.perf_counter()
        with self.lock:
            self.busy += 1
            self.busiest = max(self.busiest, self.busy)
        try:
            return self.app(environ, start_response)
        finally:
            with self.lock:
                self.busy -= 1
                self.calls.setdefault(action[:40], []).append(time.perf_counter() - began)

    def summary(self) -> dict[str, Any]:
        """Per action: calls, p50, p90, p99 and max seconds; and the most calls held at once."""
        with self.lock:
            calls = {action: sorted(times) for action, times in self.calls.items()}
        return {"busiest": self.busiest, "actions": {
            action: {"calls": len(times), **{name: round(times[min(len(times) - 1, int(len(times) * q))], 3)
                                             for name, q in (("p50", 0.5), ("p90", 0.9), ("p99", 0.99), ("max", 1.0))}}
            for action, times in calls.items()}}


def serve(argv: list[str] | None = None) -> None:
    """moto's application under waitress: keep-alive connections and a fixed pool of threads. moto's own
    server (werkzeug) closes every connection and starts a thread per request, and under load its accept
    loop waits for the interpreter lock at every request: at 200 events/s a trivial call took 0.5-1.4 s
    while the server used a third of a core, and the hub's SQS sends took 3 s (p50)."""
    parser = argparse.ArgumentParser(prog="chaos.motoserver")
    parser.add_argument("-H", "--host", default="127.0.0.1")
    parser.add_argument("-p", "--port", type=int, default=5000)
    args = parser.parse_args(argv)
    os.environ.setdefault("MOTO_PORT", str(args.port))
    app = Timings(DomainDispatcherApplication(create_backend_app))
    waitress.serve(app, host=args.host, port=args.port, threads=THREADS, connection_limit=1000, _quiet=True)


if __name__ == "__main__":
    logging.getLogger("werkzeug").setLevel(logging.WARNING)
    serve()

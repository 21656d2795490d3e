"""The FIFO queue's reader, held to what SQS FIFO promises, independently of moto.

SQS FIFO hands out no message of a group while an earlier one of that group is in flight (received,
not yet deleted, its visibility not run out), and hands a group's messages out again in their order.
The tap keeps each group's messages in flight and counts a receive that breaks that promise
(``Receipts.breaches``), so a repeat or an early event on the ledger can be told apart: the hub's sends
(the attempt log, chaos.evidence) or the queue's hand-outs (this). A delete that fails is tried again,
so the queue redelivers only what a lost answer leaves in flight; what it redelivers is noted as the
queue's redelivery by message id (chaos.ordering.Receipts), not as a send of the hub.
"""

from __future__ import annotations

import json
import time
from collections import defaultdict
from typing import Any

from chaos.aws import QueueTap

ATTRIBUTES = ["ApproximateReceiveCount", "SentTimestamp", "MessageGroupId"]
VISIBILITY_SECONDS = 60
DELETE_TRIES = 3


class FifoTap(QueueTap):
    """A QueueTap of a FIFO queue: message identity and receive counts noted, group order checked."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.in_flight: dict[str, dict[str, float]] = defaultdict(dict)  # group -> message id -> visible again at

    def read_once(self, sqs: Any, wait_seconds: int) -> int:
        """One receive (up to 10 messages), the group check, the notes, and the delete of what it got."""
        answer = sqs.receive_message(QueueUrl=self.queue_url, MaxNumberOfMessages=10, WaitTimeSeconds=wait_seconds,
                                     VisibilityTimeout=VISIBILITY_SECONDS, AttributeNames=ATTRIBUTES)
        messages = answer.get("Messages", [])
        self._hand_out(messages)
        with self.lock:
            self.got.update(self.key(json.loads(message["Body"])) for message in messages)
        assert self.receipts is not None
        for message in messages:
            attributes = message.get("Attributes", {})
            self.receipts.note_message(message["Body"].encode(), message["MessageId"],
                                       int(attributes.get("ApproximateReceiveCount", 1)),
                                       int(attributes.get("SentTimestamp", 0)))
        if messages:
            self._delete(sqs, messages)
        return len(messages)

    def _hand_out(self, messages: list[dict[str, Any]]) -> None:
        """Note a receive's messages in flight; a group with another message still in flight (from an
        earlier receive) is a breach of FIFO order by the queue. One receive may carry several messages
        of a group: SQS hands them out together, in order."""
        now = time.monotonic()
        with self.lock:
            groups_before = {group for group, held in self.in_flight.items()
                             if any(until > now for until in held.values())}
            for message in messages:
                group = message.get("Attributes", {}).get("MessageGroupId", "")
                if group in groups_before and message["MessageId"] not in self.in_flight[group]:
                    assert self.receipts is not None
                    self.receipts.breaches.append(f"group {group}: {message['MessageId']} handed out while "
                                               f"{sorted(self.in_flight[group])} in flight")
                self.in_flight[group][message["MessageId"]] = now + VISIBILITY_SECONDS

    def _delete(self, sqs: Any, messages: list[dict[str, Any]]) -> None:
        """Delete what was read (tried again on an error). The messages leave the tap's in-flight books
        before the call: once the queue has them deleted it may hand out the group's next one."""
        with self.lock:
            for message in messages:
                group = message.get("Attributes", {}).get("MessageGroupId", "")
                self.in_flight[group].pop(message["MessageId"], None)
        entries = [{"Id": str(n), "ReceiptHandle": m["ReceiptHandle"]} for n, m in enumerate(messages)]
        for attempt in range(1, DELETE_TRIES + 1):
            try:
                sqs.delete_message_batch(QueueUrl=self.queue_url, Entries=entries)
                return
            except Exception:  # tried again; past the tries the queue redelivers, noted as such
                with self.lock:
                    self.errors += 1
                if attempt == DELETE_TRIES:
                    raise
                time.sleep(0.2 * attempt)

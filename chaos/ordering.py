"""The ordering ledger (N77): an ordered webhook subscription behind a flaky receiver and an ordered SQS
FIFO subscription, each checked per key.

The receiver (and the FIFO queue's reader) notes each 200 it gives (or would have given, when it answers after the hub's timeout) as
(key, CloudEvent id), in arrival order. After the drain, each key's receipts are held against the key's
events in the event log (``seq`` order, the order the hub promises) and against the jobs' outcomes:

- no event is first received before one that precedes it;
- no event of the key is missing unless its job was dead-lettered (the run's policy is ``skip``);
- a receipt repeated is only ever of the key's latest first-received event.
"""

from __future__ import annotations

import threading
import time
from collections import defaultdict
from dataclasses import dataclass, field
from pathlib import Path

import orjson
import psycopg

from chaos import evidence
from chaos.ledger import Ledger

ORDERED_NAME = "hook-ordered"
FIFO_NAME = "sqs-fifo"
ORDERED_NAMES = (ORDERED_NAME, FIFO_NAME)
ORDERING = {"key": "partitionkey", "on_dead_letter": "skip"}

KEY_EVENTS_SQL = """
SELECT e.partition_key, e.ce_id, j.state
  FROM delivery_jobs j JOIN subscriptions s ON s.id = j.subscription_id
  JOIN event_log e ON e.tenant_id = j.tenant_id AND e.seq = j.event_seq
 WHERE j.tenant_id = %s AND s.name = %s AND e.partition_key IS NOT NULL
 ORDER BY e.partition_key, e.seq"""


@dataclass
class Receipts:
    """The ordered receiver's successes, in arrival order, as (key, CloudEvent id).

    A queue's reader also gives each message's queue identity (``note_message``): a message the queue
    hands out again (its receive count above 1, a delete that did not reach it) is the queue's
    redelivery, not a send of the hub, so it is counted apart and kept out of ``arrivals``. Every
    message is kept in ``messages`` for the evidence of a failing check (chaos.evidence).
    """

    arrivals: list[tuple[str, str]] = field(default_factory=list)
    lock: threading.Lock = field(default_factory=threading.Lock)
    messages: list[dict[str, object]] = field(default_factory=list)
    redeliveries: int = 0
    seen: set[str] = field(default_factory=set)
    breaches: list[str] = field(default_factory=list)  # the queue broke a group's order (chaos.fifotap)

    def note(self, body: bytes) -> None:
        parsed = _key_and_id(body)
        if parsed is not None:
            with self.lock:
                self.arrivals.append(parsed)

    def note_message(self, body: bytes, message_id: str, received: int, sent_ms: int) -> None:
        """One message a queue handed out: its MessageId, ApproximateReceiveCount and SentTimestamp."""
        parsed = _key_and_id(body)
        if parsed is None:
            return
        with self.lock:
            again = message_id in self.seen  # a first receipt lost on its way here still counts once
            self.messages.append({"key": parsed[0], "ce_id": parsed[1], "message_id": message_id,
                                  "receive_count": received, "sent_ms": sent_ms, "read_at": time.time(),
                                  "redelivery": again})
            if again:
                self.redeliveries += 1
                return
            self.seen.add(message_id)
            self.arrivals.append(parsed)


def _key_and_id(body: bytes) -> tuple[str, str] | None:
    try:
        event = orjson.loads(body)
        return str(event.get("partitionkey")), str(event["id"])
    except (orjson.JSONDecodeError, KeyError, AttributeError, TypeError):
        return None  # not an event the run sent: the other checks see it


@dataclass
class KeyFaults:
    """What the checks found wrong, counted over every key."""

    keys: int = 0
    out_of_order: int = 0
    gaps: int = 0
    skipped: int = 0
    stray_repeats: int = 0
    repeats: int = 0
    examples: list[str] = field(default_factory=list)
    failing: list[tuple[str, str, str, str]] = field(default_factory=list)  # (kind, key, event, what)

    def note(self, key: str, ce_id: str, what: str, kind: str = "") -> None:
        if len(self.examples) < 3:
            self.examples.append(f"{key}: {what}")
        if len(self.failing) < 20 or not any(kind == noted for noted, *_ in self.failing):
            self.failing.append((kind, key, ce_id, what))


def key_events(dsn: str, tenant: str, name: str) -> dict[str, list[tuple[str, str]]]:
    """Each key's (CloudEvent id, job state) of the ordered subscription NAME, in the event log's order."""
    with psycopg.connect(dsn) as conn:
        rows = conn.execute(KEY_EVENTS_SQL, (tenant, name)).fetchall()
    by_key: dict[str, list[tuple[str, str]]] = defaultdict(list)
    for key, ce_id, state in rows:
        by_key[key].append((ce_id, state))
    return by_key


def check_key(key: str, expected: list[tuple[str, str]], arrivals: list[str], faults: KeyFaults) -> None:
    """One key: first receipts in log order, every gap a dead-letter, repeats only of the latest."""
    position = {ce_id: n for n, (ce_id, _state) in enumerate(expected)}
    first: list[str] = []
    for ce_id in arrivals:
        if ce_id in first:
            faults.repeats += 1
            if ce_id != first[-1]:
                faults.stray_repeats += 1
                faults.note(key, ce_id, f"{ce_id} again after {first[-1]}", "repeat")
            continue
        if first and position.get(ce_id, -1) < position.get(first[-1], -1):
            faults.out_of_order += 1
            faults.note(key, ce_id, f"{ce_id} after {first[-1]}", "early")
        first.append(ce_id)
    received = set(first)
    for ce_id, state in expected:
        if ce_id in received:
            continue
        if state == "dead_lettered":
            faults.skipped += 1
        else:
            faults.gaps += 1
            faults.note(key, ce_id, f"{ce_id} never received ({state})", "gap")


def ordering_lines(ledger: Ledger, receipts: Receipts, dsn: str, tenant: str, name: str,
                   folder: Path | None = None, lease_seconds: float = 5.0) -> None:
    """The ordering checks of the ordered subscription NAME, each a ledger line; a failing one names its
    key, event and the event's attempts, and the detail of every failing key is written to the folder."""
    expected = key_events(dsn, tenant, name)
    by_key: dict[str, list[str]] = defaultdict(list)
    with receipts.lock:
        for key, ce_id in receipts.arrivals:
            by_key[key].append(ce_id)
    faults = KeyFaults(keys=len(expected))
    for key, events in expected.items():
        check_key(key, events, by_key.get(key, []), faults)
    attempts = evidence.attempts_by_key(dsn, tenant, name)
    sends = evidence.send_order_breaches(attempts)
    pace = evidence.pace(attempts, lease_seconds)
    kept = evidence.write(folder, name, {
        "pace": pace, "hub_send_order_breaches": sends[:50], "queue_breaches": receipts.breaches[:50],
        "queue_redeliveries": receipts.redeliveries, "examples": faults.examples,
        "keys": [evidence.key_detail(key, expected.get(key, []), attempts.get(key, []), receipts.messages,
                                     by_key.get(key, [])) for key in dict.fromkeys(k for _, k, _, _ in faults.failing)]})
    strays = set(by_key) - set(expected)
    ledger.check(f"{name}: keys, events", f"{faults.keys} keys, {sum(map(len, expected.values()))} events",
                 faults.keys > 0 and not strays)
    ledger.check(f"{name}: received before an earlier event",
                 f"{faults.out_of_order}{_example(faults, 'early', attempts, kept)}", faults.out_of_order == 0)
    ledger.check(f"{name}: gaps not skipped by the policy", f"{faults.gaps}{_example(faults, 'gap', attempts, kept)}",
                 faults.gaps == 0)
    ledger.check(f"{name}: skipped (dead-lettered, recorded)", faults.skipped, True)
    ledger.check(f"{name}: repeats, of an earlier event",
                 f"{faults.repeats}, {faults.stray_repeats}{_example(faults, 'repeat', attempts, kept)}",
                 faults.stray_repeats == 0)
    ledger.check(f"{name}: hub sends after a later event (attempt log)",
                 f"{len(sends)}" + (f" (e.g. {sends[0]})" if sends else ""), not sends)
    if receipts.messages or receipts.breaches:
        ledger.check(f"{name}: queue: group order broken, redeliveries",
                     f"{len(receipts.breaches)}, {receipts.redeliveries}", not receipts.breaches)
    ledger.check(f"{name}: pace (attempt log)", pace_line(pace), True)


def _example(faults: KeyFaults, kind: str, attempts: dict[str, list[evidence.Attempt]], kept: Path | None) -> str:
    """The first failing example of KIND (``early``, ``gap``, ``repeat``) with its key, its event's recorded
    attempts and where the detail was kept; empty when none failed that way."""
    found = next((noted for noted in faults.failing if noted[0] == kind), None)
    if found is None:
        return ""
    _kind, key, ce_id, what = found
    where = f"; detail in {kept.name}" if kept is not None else ""
    return f" (e.g. {key}: {what}; {ce_id}: {evidence.attempts_of(ce_id, attempts.get(key, []))}{where})"


def pace_line(pace: dict[str, object]) -> str:
    """The pace figures as one ledger figure."""
    if not pace.get("attempts"):
        return "no attempts"
    send, retry, wait = (pace[name] for name in ("send_seconds", "retry_wait_seconds", "key_wait_seconds"))
    return (f"{pace['delivered_per_second']}/s; send p50 {send['p50']} s p99 {send['p99']} s; "  # type: ignore[index]
            f"{pace['mean_in_flight']} in flight; retry wait p50 {retry['p50']} s; "  # type: ignore[index]
            f"key wait p50 {wait['p50']} s p90 {wait['p90']} s")  # type: ignore[index]

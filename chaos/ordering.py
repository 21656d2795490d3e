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
from collections import defaultdict
from dataclasses import dataclass, field

import orjson
import psycopg

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
    """The ordered receiver's successes, in arrival order, as (key, CloudEvent id)."""

    arrivals: list[tuple[str, str]] = field(default_factory=list)
    lock: threading.Lock = field(default_factory=threading.Lock)

    def note(self, body: bytes) -> None:
        try:
            event = orjson.loads(body)
            key, ce_id = event.get("partitionkey"), event["id"]
        except (orjson.JSONDecodeError, KeyError, AttributeError):
            return  # not an event the run sent: the other checks see it
        with self.lock:
            self.arrivals.append((str(key), str(ce_id)))


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

    def note(self, what: str) -> None:
        if len(self.examples) < 3:
            self.examples.append(what)


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
                faults.note(f"{key}: {ce_id} again after {first[-1]}")
            continue
        if first and position.get(ce_id, -1) < position.get(first[-1], -1):
            faults.out_of_order += 1
            faults.note(f"{key}: {ce_id} after {first[-1]}")
        first.append(ce_id)
    received = set(first)
    for ce_id, state in expected:
        if ce_id in received:
            continue
        if state == "dead_lettered":
            faults.skipped += 1
        else:
            faults.gaps += 1
            faults.note(f"{key}: {ce_id} never received ({state})")


def ordering_lines(ledger: Ledger, receipts: Receipts, dsn: str, tenant: str, name: str) -> None:
    """The ordering checks of the ordered subscription NAME, each a ledger line."""
    expected = key_events(dsn, tenant, name)
    by_key: dict[str, list[str]] = defaultdict(list)
    with receipts.lock:
        for key, ce_id in receipts.arrivals:
            by_key[key].append(ce_id)
    faults = KeyFaults(keys=len(expected))
    for key, events in expected.items():
        check_key(key, events, by_key.get(key, []), faults)
    strays = set(by_key) - set(expected)
    example = f" (e.g. {faults.examples[0]})" if faults.examples else ""
    ledger.check(f"{name}: keys, events", f"{faults.keys} keys, {sum(map(len, expected.values()))} events",
                 faults.keys > 0 and not strays)
    ledger.check(f"{name}: received before an earlier event", f"{faults.out_of_order}{example}",
                 faults.out_of_order == 0)
    ledger.check(f"{name}: gaps not skipped by the policy", faults.gaps, faults.gaps == 0)
    ledger.check(f"{name}: skipped (dead-lettered, recorded)", faults.skipped, True)
    ledger.check(f"{name}: repeats, of an earlier event", f"{faults.repeats}, {faults.stray_repeats}",
                 faults.stray_repeats == 0)

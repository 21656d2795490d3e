"""Ordered delivery end to end (N77, N78) with real processes and a real HTTPS receiver.

1. Kafka → `hub ingest` → two `hub deliver` processes → a receiver that fails requests at random: for
   each key, the first successful receipts arrive in event order, none missing, and the receiver never
   has two requests of one key in flight at once.
2. ``block``: a head that dead-letters parks its key; its later events are stored, not sent, until an
   operator resumes the key: a retry sends the head again, a skip records the skip and moves on.
"""

from __future__ import annotations

import json
import random
import threading
import time
import uuid
from collections import defaultdict
from collections.abc import Callable

import psycopg
from cloudevents.core.bindings.kafka import to_structured_event
from cloudevents.core.v1.event import CloudEvent

from devkit.dnsserver import DnsServer
from devkit.processes import hub_process
from devkit.receiver import Received, Reply, https_receiver
from hub.dataplane import ordering
from hub.kafka import ensure_topics, make_producer
from tests.deliver.conftest import insert_events, insert_subscription, sql
from tests.sinks.conftest import HOOK_HOST

KEYS, PER_KEY = 12, 8
ORDERED = json.dumps({"key": "partitionkey", "on_dead_letter": "skip"})
BLOCKING = json.dumps({"key": "partitionkey", "on_dead_letter": "block"})


def wait_for(check: Callable[[], object], timeout: float = 60.0) -> None:
    deadline = time.monotonic() + timeout
    while not check():
        assert time.monotonic() < deadline, "timed out"
        time.sleep(0.1)


def hub_env(url: str, ca_bundle: object, dns: DnsServer, prefix: str) -> dict[str, str]:
    return {"HUB_DATABASE_URL": url, "HUB_KAFKA_TOPIC_PREFIX": prefix, "HUB_KAFKA_CONSUMER_GROUP": f"ingest-{prefix}",
            "HUB_DNS_NAMESERVERS": dns.address, "HUB_EGRESS_ALLOW_CIDRS": "127.0.0.0/8",
            "HUB_WEBHOOK_CA_BUNDLE": str(ca_bundle), "HUB_DELIVER_RETRY_LADDER_SECONDS": ",".join(["0.1"] * 8),
            "HUB_DELIVER_RETRY_JITTER": "0", "HUB_DELIVER_IDLE_POLL_SECONDS": "0.05",
            "HUB_DELIVER_AUTO_DISABLE_SECONDS": "3600", "HUB_LOG_LEVEL": "WARNING"}


class FlakyReceiver:
    """Answers 500 at random (at most twice per event, so every event is delivered within the ladder),
    holding each request a moment, and records overlaps of one key's requests."""

    def __init__(self, seed: int) -> None:
        self.random, self.lock = random.Random(seed), threading.Lock()
        self.failures: dict[str, int] = defaultdict(int)
        self.in_flight: set[str] = set()
        self.overlaps: list[str] = []
        self.firsts: dict[str, list[int]] = defaultdict(list)  # key -> n of each first success, in arrival order
        self.delivered: set[str] = set()

    def __call__(self, item: Received) -> Reply:
        event = json.loads(item.body)
        key, n, event_id = event["partitionkey"], event["data"]["n"], event["id"]
        with self.lock:
            if key in self.in_flight:
                self.overlaps.append(key)
            self.in_flight.add(key)
            fail = self.failures[event_id] < 2 and self.random.random() < 0.3
            self.failures[event_id] += fail
        time.sleep(0.005)  # widens the window in which a second request of the key would overlap
        with self.lock:
            self.in_flight.discard(key)
            if not fail and event_id not in self.delivered:
                self.delivered.add(event_id)
                self.firsts[key].append(n)
        return Reply(500 if fail else 200)


def test_each_keys_first_receipts_arrive_in_order_through_random_failures(
        deliver_db: str, scratch_url: str, ca, ca_bundle, hook_dns: DnsServer, tenant: str) -> None:  # noqa: ANN001
    prefix = f"t{uuid.uuid4().hex[:10]}."
    topic = f"{prefix}ledger"
    ensure_topics([topic, f"{prefix}dlq", f"{prefix}streaming-hub"], partitions=2)
    flaky = FlakyReceiver(seed=40)
    with https_receiver(ca, (HOOK_HOST,), flaky) as receiver:
        sub, _ = insert_subscription(deliver_db, tenant, f"https://{HOOK_HOST}:{receiver.port}/ordered")
        sql(deliver_db, "UPDATE subscriptions SET ordering = %s WHERE id = %s", (ORDERED, sub))
        sql(deliver_db, "UPDATE subscription_versions SET version = version + 1 WHERE id = 1")
        producer = make_producer()
        for n in range(PER_KEY):  # interleaved: key order is per key, not per topic
            for k in range(KEYS):
                event = CloudEvent(attributes={"id": str(uuid.uuid4()), "source": "ledger", "specversion": "1.0",
                                               "type": "transaction.posted", "tenantid": tenant,
                                               "partitionkey": f"key-{k}", "datacontenttype": "application/json"},
                                   data={"n": n})
                message = to_structured_event(event)
                producer.produce(topic, value=message.value, key=message.key, headers=message.headers)
        assert producer.flush(15) == 0
        env = hub_env(scratch_url, ca_bundle, hook_dns, prefix)
        with hub_process("ingest", env), hub_process("deliver", env), hub_process("deliver", env):
            wait_for(lambda: len(flaky.delivered) == KEYS * PER_KEY)
    assert sum(flaky.failures.values()) > KEYS  # the receiver really failed along the way
    assert flaky.overlaps == []
    assert dict(flaky.firsts) == {f"key-{k}": list(range(PER_KEY)) for k in range(KEYS)}
    wait_for(lambda: sql(deliver_db, "SELECT count(*) FROM ordered_keys WHERE subscription_id = %s", (sub,))[0][0] == 0)


def test_a_blocked_key_waits_for_the_operator_then_retry_or_skip_moves_it_on(
        deliver_db: str, scratch_url: str, ca, ca_bundle, hook_dns: DnsServer, tenant: str) -> None:  # noqa: ANN001
    gone: set[int] = set()  # event seqs the receiver answers 410 (Gone: dead-lettered at once)

    def script(item: Received) -> Reply:
        return Reply(410 if json.loads(item.body)["data"]["n"] in gone else 200)

    with https_receiver(ca, (HOOK_HOST,), script) as receiver:
        sub, _ = insert_subscription(deliver_db, tenant, f"https://{HOOK_HOST}:{receiver.port}/blocking")
        sql(deliver_db, "UPDATE subscriptions SET ordering = %s WHERE id = %s", (BLOCKING, sub))
        seqs = insert_events(deliver_db, tenant, [], 6)  # key r: seqs 0-2, key s: seqs 3-5
        gone.update({seqs[1], seqs[4]})
        jobs = [ordering.OrderedJob(sub, "r" if i < 3 else "s", seq, tenant, uuid.uuid4()) for i, seq in enumerate(seqs)]
        ordering_run(deliver_db, ordering.enqueue(jobs, priority=0))

        def received() -> list[int]:
            return [json.loads(body)["data"]["n"] for body in receiver.bodies()]

        with hub_process("deliver", hub_env(scratch_url, ca_bundle, hook_dns, f"t{uuid.uuid4().hex[:10]}.")):
            wait_for(lambda: blocked(deliver_db, sub) == {"r", "s"})
            time.sleep(0.5)  # nothing more goes out while blocked
            assert sorted(received()) == sorted([seqs[0], seqs[1], seqs[3], seqs[4]])
            gone.discard(seqs[1])
            assert ordering_run(deliver_db, ordering.retry_head(sub, "r")) is not None
            assert ordering_run(deliver_db, ordering.skip_head(sub, "s")) is not None
            wait_for(lambda: {seqs[2], seqs[5]} <= set(received()))
    got = received()
    assert got.index(seqs[2]) > len(got) - 1 - got[::-1].index(seqs[1])  # r's 2 only after the retried 1
    assert got.count(seqs[4]) == 1  # skipped, never sent again
    [(outcome, detail)] = sql(deliver_db, """SELECT a.outcome, a.detail FROM delivery_attempts AS a
                                               JOIN delivery_jobs AS j ON j.id = a.job_id
                                              WHERE j.subscription_id = %s AND j.event_seq = %s AND a.detail = %s""",
                              (sub, seqs[4], ordering.SKIP_DETAIL))
    assert outcome == ordering.SKIP_OUTCOME
    assert blocked(deliver_db, sub) == set()


def blocked(url: str, sub: uuid.UUID) -> set[str]:
    return {key for (key,) in sql(url, "SELECT ordering_key FROM ordered_keys WHERE subscription_id = %s"
                                       " AND blocked_at IS NOT NULL", (sub,))}


def ordering_run(url: str, steps: ordering.Steps) -> object:
    """An operator's (or ingest's) ordering step in a transaction of its own."""
    with psycopg.connect(url) as conn:
        return ordering.run(conn.cursor(), steps)

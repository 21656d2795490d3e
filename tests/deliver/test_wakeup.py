"""The wake-up path: `hub deliver` claims the jobs `hub ingest` commits without waiting for its poll.

The delivery workers poll only every 30 s here, so an event delivered within the test's 20 s wait
after it was produced can only have been claimed because ingest's commit woke the workers. Real
Kafka, real `hub ingest` and `hub deliver` processes, a real HTTPS receiver. Rules: the hub's
at-least-once delivery (every job still ends in one recorded outcome).
"""

from __future__ import annotations

import asyncio
import time
import uuid

from cloudevents.core.bindings.kafka import to_structured_event
from cloudevents.core.v1.event import CloudEvent

from hub.kafka import ensure_topics, make_producer
from tests.deliver.conftest import hook_url, insert_subscription, sql
from devkit.dnsserver import DnsServer
from devkit.processes import hub_process
from devkit.receiver import Receiver
from workers.deliver.wakeup import ClaimPacing, Wakeup

POLL_SECONDS = 30
WAIT_SECONDS = 20  # shorter than the poll: only a wake-up gets the event there in time


def produce(topic: str, tenant: str, n: int) -> None:
    event = CloudEvent(attributes={"id": str(uuid.uuid4()), "source": "ledger", "type": "transaction.posted",
                                   "specversion": "1.0", "tenantid": tenant, "datacontenttype": "application/json"},
                       data={"n": n})
    message = to_structured_event(event)
    producer = make_producer()
    producer.produce(topic, value=message.value, key=message.key, headers=message.headers)
    assert producer.flush(15) == 0


def received(receiver: Receiver, count: int, timeout: float) -> bool:
    deadline = time.monotonic() + timeout
    while len(receiver.received) < count:
        if time.monotonic() > deadline:
            return False
        time.sleep(0.1)
    return True


def test_ingest_commit_wakes_idle_delivery_workers(deliver_db: str, scratch_url: str, ca_bundle,  # noqa: ANN001
                                                   hook_dns: DnsServer, scripted: Receiver, tenant: str) -> None:
    prefix = f"t{uuid.uuid4().hex[:10]}."
    env = {"HUB_DATABASE_URL": scratch_url, "HUB_KAFKA_TOPIC_PREFIX": prefix,
           "HUB_KAFKA_CONSUMER_GROUP": f"ingest-{prefix}", "HUB_DNS_NAMESERVERS": hook_dns.address,
           "HUB_EGRESS_ALLOW_CIDRS": "127.0.0.0/8", "HUB_WEBHOOK_CA_BUNDLE": str(ca_bundle),
           "HUB_DELIVER_IDLE_POLL_SECONDS": str(POLL_SECONDS), "HUB_LOG_LEVEL": "WARNING"}
    topic = f"{prefix}ledger"
    ensure_topics([topic, f"{prefix}dlq", f"{prefix}streaming-hub"], partitions=1)
    insert_subscription(deliver_db, tenant, hook_url(scripted))
    sql(deliver_db, "UPDATE subscription_versions SET version = version + 1 WHERE id = 1")
    with hub_process("ingest", env), hub_process("deliver", env):
        produce(topic, tenant, 0)  # the first one also waits out both processes' start
        assert received(scripted, 1, 120), "the first event never arrived"
        for n in (1, 2):
            # Every claim loop is now idle until its next poll, about 30 s away.
            produce(topic, tenant, n)
            assert received(scripted, n + 1, WAIT_SECONDS), f"event {n} waited for the poll: no wake-up"
    assert dict(sql(deliver_db, "SELECT state, count(*) FROM delivery_jobs WHERE tenant_id = %s GROUP BY state",
                    (tenant,))) == {"delivered": 3}


def test_a_wakeup_releases_one_idle_loop_and_is_kept_when_all_are_busy() -> None:
    """Pure logic of what the claim loops wait on: one loop per wake-up; a wake-up while all are busy is not lost."""

    async def go() -> None:
        wakeup = Wakeup()
        wakeup.set()  # a notification while every loop was busy
        await asyncio.wait_for(wakeup.wait(30), 5)  # the next loop to go idle claims at once
        loops = [asyncio.create_task(wakeup.wait(30)) for _ in range(3)]
        await asyncio.sleep(0)
        wakeup.set()
        await asyncio.sleep(0)
        assert sum(loop.done() for loop in loops) == 1  # one claim per notification
        wakeup.set_all()  # stopping: every loop leaves its pause
        await asyncio.wait_for(asyncio.gather(*loops), 5)
        await asyncio.wait_for(wakeup.wait(30), 5)

    asyncio.run(go())


def test_claims_without_a_backlog_are_spaced_and_a_full_batch_lifts_the_spacing() -> None:
    """Pure logic of the claim pacing: one claim per interval across the loops while claims come back
    short; back to back once one comes back full; a stop ends a loop's wait at once."""

    async def go() -> None:
        clock = asyncio.get_running_loop().time
        pacing, stop = ClaimPacing(0.2), asyncio.Event()
        began = clock()
        await pacing.turn(stop)  # nothing claimed yet: at once
        turns = [clock()]
        for _ in range(2):
            pacing.claimed(False)  # short: no backlog
            await pacing.turn(stop)
            turns.append(clock())
        assert turns[0] - began < 0.1
        assert all(later - earlier >= 0.19 for earlier, later in zip(turns, turns[1:]))
        waiting = [asyncio.create_task(pacing.turn(stop)) for _ in range(2)]  # two loops ask at once
        await asyncio.wait_for(waiting[0], 1)
        assert not waiting[1].done()  # the second gets the slot after
        await asyncio.wait_for(waiting[1], 1)
        pacing.claimed(True)  # full: a backlog
        started = clock()
        for _ in range(5):
            await pacing.turn(stop)
        assert clock() - started < 0.1
        pacing.claimed(False)
        paused = asyncio.create_task(pacing.turn(stop))
        await asyncio.sleep(0.01)
        stop.set()
        await asyncio.wait_for(paused, 0.1)

    asyncio.run(go())


def test_an_idle_poll_right_after_a_claim_does_not_claim_and_a_notified_claim_waits_only_the_short_spacing() -> None:
    """Pure logic: a poll (a pause that no notification ended) claims only when no claim was made for the
    poll interval; a notified claim waits only the claim spacing; the pause says whether it was woken."""

    async def go() -> None:
        clock = asyncio.get_running_loop().time
        pacing, stop = ClaimPacing(0.02, 0.3), asyncio.Event()
        assert await pacing.turn(stop)  # a claim
        pacing.claimed(False)
        began = clock()
        assert not await pacing.turn(stop, poll=True)  # that claim looked a moment ago: no poll
        assert clock() - began < 0.01  # and it did not wait for a slot
        assert await pacing.turn(stop)  # a notification: the next slot of the short spacing
        assert 0.015 <= clock() - began < 0.2
        await asyncio.sleep(0.31)
        assert await pacing.turn(stop, poll=True)  # no claim for the poll interval: the poll claims
        wakeup = Wakeup()
        assert not await wakeup.wait(0.01)  # timed out: a poll follows
        wakeup.set()
        assert await wakeup.wait(5)  # woken

    asyncio.run(go())

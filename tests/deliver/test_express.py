"""The express claim loop (N98): it claims only lanes whose destination is not busy in this process, a few
jobs of each, so a quiet tenant's job is not claimed behind the pipelines' batches of a flood. Against the
real claim, real HTTPS receivers and the real database."""

from __future__ import annotations

import asyncio
import uuid

from devkit.dnsserver import DnsServer
from devkit.receiver import Reply, https_receiver
from hub.sinks.vocabulary import SinkKind
from tests.deliver.conftest import copy_due_jobs, hook_url, insert_events, insert_subscription, one_batch, sql
from tests.sinks.conftest import HOOK_HOST
from workers.deliver.prepare import destination_key
from workers.deliver.stalls import Stalls

BUSY = 4


def test_busy_caps_every_lane_of_a_destination_with_enough_requests_out() -> None:
    async def go() -> dict[uuid.UUID, int]:
        stalls = Stalls(after_seconds=1.0)
        stalls.place(first, "webhook:a")
        stalls.place(second, "webhook:a")
        stalls.place(calm, "webhook:b")
        stalls.began("webhook:a", 8)
        stalls.began("webhook:b", 7)
        return stalls.busy(8)
    first, second, calm = uuid.uuid4(), uuid.uuid4(), uuid.uuid4()
    assert asyncio.run(go()) == {first: 0, second: 0}


def _delivered(url: str, tenant: str) -> int:
    [(count,)] = sql(url, "SELECT count(*) FROM delivery_jobs WHERE tenant_id = %s AND state = 'delivered'", (tenant,))
    return count


def _express_batch(busy_out: int, flood_endpoint: str, flood_sub: uuid.UUID) -> int:
    """One express batch of the real engine while the flood's destination has ``busy_out`` requests out."""
    def busy(engine) -> None:  # noqa: ANN001
        key = destination_key(SinkKind.webhook, flood_endpoint)
        engine.stalls.place(flood_sub, key)
        engine.stalls.began(key, busy_out)
    return one_batch(busy, bulk=False, express=True)


def test_the_express_loop_leaves_a_busy_destination_to_the_pipelines(  # noqa: ANN001
        deliver_db: str, override_settings, ca, hook_dns: DnsServer) -> None:
    override_settings(deliver_express_busy=str(BUSY))
    flood, quiet = f"flood-{uuid.uuid4().hex[:8]}", f"quiet-{uuid.uuid4().hex[:8]}"
    with https_receiver(ca, (HOOK_HOST,), lambda _item: Reply()) as flood_receiver, \
            https_receiver(ca, (HOOK_HOST,), lambda _item: Reply()) as quiet_receiver:
        flood_sub, _ = insert_subscription(deliver_db, flood, hook_url(flood_receiver))
        quiet_sub, _ = insert_subscription(deliver_db, quiet, hook_url(quiet_receiver))
        copy_due_jobs(deliver_db, flood, [flood_sub], events=200, fanout=1)
        insert_events(deliver_db, quiet, [quiet_sub], 3)
        # The flood's destination has BUSY requests out: the express batch takes the quiet tenant's jobs only.
        assert _express_batch(BUSY, hook_url(flood_receiver), flood_sub) >= 3  # other tests' lanes may be due too
        assert (_delivered(deliver_db, quiet), _delivered(deliver_db, flood)) == (3, 0)
        # One fewer out: the flood's lane is claimed too, at most BUSY of its jobs; the quiet lane, BUSY too.
        insert_events(deliver_db, quiet, [quiet_sub], 10)
        assert _express_batch(BUSY - 1, hook_url(flood_receiver), flood_sub) >= 2 * BUSY
        assert (_delivered(deliver_db, quiet), _delivered(deliver_db, flood)) == (3 + BUSY, BUSY)
    _forget(deliver_db, flood, quiet)


def test_a_job_the_express_loop_found_no_slot_for_is_due_again_at_once(  # noqa: ANN001
        deliver_db: str, override_settings, ca, hook_dns: DnsServer) -> None:
    """The express loop never waits for a slot; what it leaves untried is the pipelines' at once, not in a second."""
    override_settings(deliver_express_busy=str(BUSY))
    tenant = f"slotless-{uuid.uuid4().hex[:8]}"
    with https_receiver(ca, (HOOK_HOST,), lambda _item: Reply()) as receiver:
        sub, _ = insert_subscription(deliver_db, tenant, hook_url(receiver))
        insert_events(deliver_db, tenant, [sub], 2)

        def slots_taken(engine) -> None:  # noqa: ANN001 (another batch holds every slot of the destination)
            engine.limits.per_destination[destination_key(SinkKind.webhook, hook_url(receiver))] = asyncio.Semaphore(0)
        one_batch(slots_taken, bulk=False, express=True)
        [(untried, due_now)] = sql(deliver_db, "SELECT count(*) FILTER (WHERE attempts = 0 AND state = 'pending'), "
                                               "bool_and(next_attempt_at <= now()) FROM delivery_jobs WHERE tenant_id = %s",
                                   (tenant,))
        assert (untried, due_now) == (2, True)
        assert receiver.received == []
    _forget(deliver_db, tenant)


def _forget(url: str, *tenants: str) -> None:
    """The tenants' jobs still due, gone: other tests' claims count what they claim."""
    sql(url, "DELETE FROM delivery_jobs WHERE tenant_id = ANY(%s)", (list(tenants),))

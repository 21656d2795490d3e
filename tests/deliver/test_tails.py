"""A batch's slow tail is recorded apart (N83): the pipeline records the sends that ended within the
record wait and claims on; the slow sends are recorded on the tail connection soon after each ends, every
send that ended since the last round, of every batch, in one transaction per record wait (N108), each job once.

The margins are wide (a fast answer in well under a second against a record wait of one second, a slow
one after four), so a busy machine does not change which send ends where.
"""

from __future__ import annotations

import asyncio
import uuid
from collections.abc import Callable

from devkit.receiver import Reply, https_receiver
from hub.config import get_settings
from tests.deliver.conftest import attempts, insert_events, insert_subscription, sql
from tests.sinks.conftest import HOOK_HOST
from workers.deliver.bookkeeping import Part
from workers.deliver.engine import Engine
from workers.deliver.tails import Tail, Tails
from workers.runtime import async_connector


def _states(url: str, tenant: str) -> dict[uuid.UUID, set[str]]:
    rows = sql(url, "SELECT subscription_id, array_agg(DISTINCT state) FROM delivery_jobs WHERE tenant_id = %s "
                    "GROUP BY subscription_id", (tenant,))
    return {sub: set(states) for sub, states in rows}


def test_a_slow_destination_is_recorded_apart_and_the_rest_at_once(deliver_db: str, ca, tenant: str,  # noqa: ANN001
                                                                    override_settings) -> None:  # noqa: ANN001
    override_settings(deliver_record_wait_seconds="1.0", deliver_batch_size="100")

    async def one_batch_then_its_tail() -> tuple[int, dict[uuid.UUID, set[str]], int]:
        engine = Engine(settings=get_settings(), tail_connect=async_connector(application_name="hub-deliver-tails"))
        conn = await async_connector(application_name="hub-deliver")()
        try:
            claimed = (await engine.run_batch(conn)).claimed
            at_record, tails = _states(deliver_db, tenant), len(engine.tails.pending)
            await engine.tails.drain()
            return claimed, at_record, tails
        finally:
            await conn.close()
            await engine.close()

    with https_receiver(ca, (HOOK_HOST,), lambda _item: ("sleep", 4.0)) as slow_receiver, \
            https_receiver(ca, (HOOK_HOST,), lambda _item: Reply()) as fast_receiver:
        slow, _ = insert_subscription(deliver_db, tenant, f"https://{HOOK_HOST}:{slow_receiver.port}/h",
                                      timeout_ms=10_000)
        fast, _ = insert_subscription(deliver_db, tenant, f"https://{HOOK_HOST}:{fast_receiver.port}/h")
        insert_events(deliver_db, tenant, [slow, fast], 3)
        claimed, at_record, tails = asyncio.run(one_batch_then_its_tail())

    assert claimed >= 6 and tails == 1, "one batch took all six jobs (and any due job an earlier test left)"
    assert at_record == {fast: {"delivered"}, slow: {"pending"}}, "the batch recorded the fast sends only"
    assert _states(deliver_db, tenant) == {fast: {"delivered"}, slow: {"delivered"}}, "the tail recorded the rest"
    per_job = sql(deliver_db, "SELECT job_id, count(*) FROM delivery_attempts WHERE tenant_id = %s GROUP BY job_id",
                  (tenant,))
    assert len(per_job) == 6 and {count for _, count in per_job} == {1}, "each job recorded once"
    assert {row["outcome"] for row in attempts(deliver_db, tenant)} == {"delivered"}


def test_a_tail_send_is_recorded_soon_after_it_ends_not_with_its_batchs_slowest(
        deliver_db: str, ca, tenant: str, override_settings) -> None:
    """One batch, three destinations (at once, after 1.5 s, after 6 s): the 1.5 s sends are recorded by a round
    while the 6 s ones are still out (they were recorded together, once the slowest ended, before N108)."""
    override_settings(deliver_record_wait_seconds="0.5", deliver_lease_seconds="30")

    async def until_medium_recorded(medium: uuid.UUID) -> dict[uuid.UUID, set[str]]:
        engine = Engine(settings=get_settings(), tail_connect=async_connector(application_name="hub-deliver-tails"))
        conn = await async_connector(application_name="hub-deliver")()
        try:
            assert (await engine.run_batch(conn)).claimed >= 6
            deadline = asyncio.get_running_loop().time() + 5.0
            while (states := await asyncio.to_thread(_states, deliver_db, tenant))[medium] != {"delivered"}:
                assert asyncio.get_running_loop().time() < deadline, "the 1.5 s sends were not recorded in time"
                await asyncio.sleep(0.05)
            await engine.tails.drain()
            return states
        finally:
            await conn.close()
            await engine.close()

    with https_receiver(ca, (HOOK_HOST,), lambda _item: Reply()) as fast_receiver, \
            https_receiver(ca, (HOOK_HOST,), lambda _item: ("sleep", 1.5)) as medium_receiver, \
            https_receiver(ca, (HOOK_HOST,), lambda _item: ("sleep", 6.0)) as slow_receiver:
        fast, _ = insert_subscription(deliver_db, tenant, f"https://{HOOK_HOST}:{fast_receiver.port}/h")
        medium, _ = insert_subscription(deliver_db, tenant, f"https://{HOOK_HOST}:{medium_receiver.port}/h")
        slow, _ = insert_subscription(deliver_db, tenant, f"https://{HOOK_HOST}:{slow_receiver.port}/h",
                                      timeout_ms=10_000)
        insert_events(deliver_db, tenant, [fast, medium, slow], 2)
        states = asyncio.run(until_medium_recorded(medium))

    assert states == {fast: {"delivered"}, medium: {"delivered"}, slow: {"pending"}}, \
        "the medium sends were recorded while the slow ones were out"
    assert _states(deliver_db, tenant) == {fast: {"delivered"}, medium: {"delivered"}, slow: {"delivered"}}
    per_job = sql(deliver_db, "SELECT job_id, count(*) FROM delivery_attempts WHERE tenant_id = %s GROUP BY job_id",
                  (tenant,))
    assert len(per_job) == 6 and {count for _, count in per_job} == {1}, "each job recorded once"


def test_a_round_records_every_batchs_ended_sends_in_one_transaction() -> None:
    """Two batches' tails: a round takes the sends of both that ended, in one record (one transaction on the
    tail connection), each send once; a send still out waits for a later round, and once its batch's sending
    is over, the sends left untried go with it."""
    calls: list[list[Part]] = []

    async def record(_conn: object, parts: list[Part]) -> int:
        calls.append(parts)
        return 0

    async def connect() -> object:
        class Conn:
            closed = False

            async def close(self) -> None:
                self.closed = True
        return Conn()

    def part_of(batch: str) -> Callable[[list[int]], Part]:
        # The round only passes a part on: (batch, index) pairs stand for its settled jobs.
        return lambda indexes: Part(None, frozenset(), [(batch, index) for index in indexes], [])  # type: ignore

    async def go() -> None:
        loop = asyncio.get_running_loop()
        tails = Tails(connect, 60.0, record)  # rounds driven by hand below
        first, second = loop.create_future(), loop.create_future()
        a: list[object | None] = [None, None, None]
        b: list[object | None] = [None, None]
        tails.pending = [Tail(a, [0, 1, 2], first, part_of("a")), Tail(b, [0, 1], second, part_of("b"))]
        a[0], a[2], b[1] = "sent", "sent", "sent"
        await tails.round()
        assert [[part.settled for part in parts] for parts in calls] == [[[("a", 0), ("a", 2)], [("b", 1)]]]
        await tails.round()
        assert len(calls) == 1, "nothing ended since: no transaction"
        b[0] = "sent"
        second.set_result(None)
        first.set_result(None)  # a[1] was never tried: it goes back with this round
        await tails.round()
        assert [part.settled for part in calls[1]] == [[("a", 1)], [("b", 0)]]
        assert tails.pending == []
        await tails.drain()

    asyncio.run(go())

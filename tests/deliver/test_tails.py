"""A batch's slow tail is recorded apart (N83): the pipeline records the sends that ended within the
record wait and claims on; the slow sends are recorded on the tail connection when they end, each job once.

The margins are wide (a fast answer in well under a second against a record wait of one second, a slow
one after four), so a busy machine does not change which send ends where.
"""

from __future__ import annotations

import asyncio
import uuid

from devkit.receiver import Reply, https_receiver
from hub.config import get_settings
from tests.deliver.conftest import attempts, insert_events, insert_subscription, sql
from tests.sinks.conftest import HOOK_HOST
from workers.deliver.engine import Engine
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
            at_record, tails = _states(deliver_db, tenant), len(engine.tails.tasks)
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

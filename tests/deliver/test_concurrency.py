"""One hanging destination holds only its own slots: the others in the same batch are delivered.

Structural, not timed: with a per-destination limit of 2, a batch holding jobs for a hanging host
and for a healthy one tries the hanging host at most twice; its other jobs go back untried (no
attempt, no budget), and every job for the healthy host is delivered in that same batch.
"""

from __future__ import annotations

from tests.deliver.conftest import attempts, insert_events, insert_subscription, one_batch, sql
from tests.sinks.conftest import HOOK_HOST
from devkit.receiver import Reply, https_receiver



def test_hanging_destination_does_not_starve_the_others(deliver_db: str, ca, tenant: str,  # noqa: ANN001
                                                         override_settings) -> None:  # noqa: ANN001
    override_settings(deliver_per_host_concurrency="2", deliver_host_wait_seconds="0.5",
                      deliver_batch_size="100")
    with https_receiver(ca, (HOOK_HOST,), lambda _item: ("sleep", 3.0)) as hanging, \
            https_receiver(ca, (HOOK_HOST,), lambda _item: Reply()) as healthy:
        slow, _ = insert_subscription(deliver_db, tenant, f"https://{HOOK_HOST}:{hanging.port}/h", timeout_ms=1000)
        fast, _ = insert_subscription(deliver_db, tenant, f"https://{HOOK_HOST}:{healthy.port}/h")
        insert_events(deliver_db, tenant, [slow, fast], 10)

        assert one_batch() == 20
    states = dict(sql(deliver_db, "SELECT subscription_id, array_agg(DISTINCT state) FROM delivery_jobs "
                                  "WHERE tenant_id = %s GROUP BY subscription_id", (tenant,)))
    assert states[fast] == ["delivered"]
    tried_slow = [row for row in attempts(deliver_db, tenant) if row["outcome"] != "delivered"]
    assert 1 <= len(tried_slow) <= 2 and {row["error_class"] for row in tried_slow} == {"timeout"}
    untried = sql(deliver_db, "SELECT count(*) FROM delivery_jobs WHERE subscription_id = %s AND attempts = 0 "
                              "AND state = 'pending'", (slow,))
    assert untried == [(10 - len(tried_slow),)]

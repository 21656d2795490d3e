"""One tenant's flood or hanging destination costs another tenant nothing (N98), end to end: a real
``hub deliver`` process, real HTTPS receivers (one of them hanging), the real database.

Structural, not timed: the quiet tenant's jobs, written after the other tenant's, are all delivered while
most of the other tenant's jobs have still not been tried. With one due-time order across tenants (the
claim before N98) they were delivered after the whole backlog.
"""

from __future__ import annotations

import time
import uuid

from devkit.dnsserver import DnsServer
from devkit.pg import free_port
from devkit.processes import start_hub, stop
from devkit.receiver import Reply, https_receiver
from tests.deliver.conftest import copy_due_jobs, hook_url, insert_events, insert_subscription, sql
from tests.sinks.conftest import HOOK_HOST

QUIET_EVENTS = 20


def _untried(url: str, tenant: str) -> int:
    [(count,)] = sql(url, "SELECT count(*) FROM delivery_jobs WHERE tenant_id = %s AND attempts = 0 "
                          "AND state <> 'delivered'", (tenant,))
    return count


def _run_until_quiet_delivered(url: str, env: dict[str, str], quiet: str, other: str) -> int:
    """Run one ``hub deliver`` until the quiet tenant's jobs are all delivered; the other tenant's jobs not
    yet tried at that moment."""
    worker = start_hub("deliver", {**env, "HUB_DELIVER_METRICS_PORT": str(free_port())})
    try:
        deadline = time.monotonic() + 90
        while sql(url, "SELECT count(*) FROM delivery_jobs WHERE tenant_id = %s AND state = 'delivered'",
                  (quiet,)) != [(QUIET_EVENTS,)]:
            assert time.monotonic() < deadline, "the quiet tenant's jobs were not delivered in time"
            assert worker.poll() is None, "the delivery worker died"
            time.sleep(0.05)
        return _untried(url, other)
    finally:
        stop(worker)


def _env(scratch_url: str, hook_dns: DnsServer, ca_bundle, **settings: str) -> dict[str, str]:  # noqa: ANN001
    return {"HUB_DATABASE_URL": scratch_url, "HUB_DNS_NAMESERVERS": hook_dns.address,
            "HUB_EGRESS_ALLOW_CIDRS": "127.0.0.0/8", "HUB_WEBHOOK_CA_BUNDLE": str(ca_bundle),
            "HUB_LOG_LEVEL": "WARNING", **settings}


def test_a_flood_does_not_hold_back_a_quiet_tenant(deliver_db: str, scratch_url: str, ca, ca_bundle,  # noqa: ANN001
                                                    hook_dns: DnsServer) -> None:
    flood, quiet = f"flood-{uuid.uuid4().hex[:8]}", f"quiet-{uuid.uuid4().hex[:8]}"
    with https_receiver(ca, (HOOK_HOST,), lambda _item: Reply()) as flood_receiver, \
            https_receiver(ca, (HOOK_HOST,), lambda _item: Reply()) as quiet_receiver:
        flood_sub, _ = insert_subscription(deliver_db, flood, hook_url(flood_receiver))
        quiet_sub, _ = insert_subscription(deliver_db, quiet, hook_url(quiet_receiver))
        backlog = copy_due_jobs(deliver_db, flood, [flood_sub], events=4000, fanout=1)
        insert_events(deliver_db, quiet, [quiet_sub], QUIET_EVENTS)  # written after the whole flood
        left = _run_until_quiet_delivered(deliver_db, _env(scratch_url, hook_dns, ca_bundle,
                                                           HUB_DELIVER_BATCH_SIZE="100"), quiet, flood)
    assert left >= backlog // 2, f"the quiet tenant waited for {backlog - left} of the flood's {backlog} jobs"


def test_a_hanging_destination_holds_only_its_own_slots(deliver_db: str, scratch_url: str, ca,  # noqa: ANN001
                                                         ca_bundle, hook_dns: DnsServer) -> None:
    hanging, quiet = f"hang-{uuid.uuid4().hex[:8]}", f"quiet-{uuid.uuid4().hex[:8]}"
    with https_receiver(ca, (HOOK_HOST,), lambda _item: ("sleep", 6.0)) as hanging_receiver, \
            https_receiver(ca, (HOOK_HOST,), lambda _item: Reply()) as quiet_receiver:
        hanging_sub, _ = insert_subscription(deliver_db, hanging, hook_url(hanging_receiver), timeout_ms=5000)
        quiet_sub, _ = insert_subscription(deliver_db, quiet, hook_url(quiet_receiver))
        insert_events(deliver_db, hanging, [hanging_sub], 300)
        insert_events(deliver_db, quiet, [quiet_sub], QUIET_EVENTS)
        # Batches of 4, as many as the hanging destination's slots: before N98 every claim took its jobs
        # first (due first) and waited on its slots, and the quiet tenant came after all 300.
        left = _run_until_quiet_delivered(deliver_db, _env(scratch_url, hook_dns, ca_bundle,
                                                           HUB_DELIVER_BATCH_SIZE="4",
                                                           HUB_DELIVER_PER_HOST_CONCURRENCY="4",
                                                           HUB_DELIVER_HOST_WAIT_SECONDS="2"), quiet, hanging)
    assert left >= 250, f"the quiet tenant waited while {300 - left} of the hanging destination's jobs were tried"
    # A job claimed for the hanging destination that found no free slot went back untried (touched by a
    # settle, never attempted): once the destination is seen hanging, its lane claims only free slots.
    [(back_untried,)] = sql(deliver_db, "SELECT count(*) FROM delivery_jobs WHERE tenant_id = %s AND attempts = 0 "
                                        "AND updated_at > created_at", (hanging,))
    # Before it is seen hanging: two pipelines' batches of 4 beyond its 4 slots, and the express loop's (N98)
    # one batch, which it sends only into free slots.
    assert back_untried <= 12, f"{back_untried} of its jobs were claimed with no slot to go to"

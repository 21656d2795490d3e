"""Which subscriptions an event goes to: SubscriptionCache logic, then one run on the real broker."""

from __future__ import annotations

import uuid


from tests.ingest.conftest import binary, cloud_event, ingest_worker, insert_subscription, rows, structured, wait_until
from workers.ingest.matching import SubscriptionCache, subscription_from_row

POSTED, CREATED = "transaction.posted", "account.created"


def _row(tenant: str = "t1", *, scope=None, kind="webhook", types=None, majors=None, origin=None, major=None,
         sub_id: str | None = None, payload_filter=None) -> tuple:
    return (sub_id or str(uuid.uuid4()), tenant, scope, kind, types, majors, origin, major, payload_filter, None)


def _cache(*rows_: tuple) -> SubscriptionCache:
    cache = SubscriptionCache()
    cache.load([subscription_from_row(row) for row in rows_], 1)
    return cache


def _push(cache: SubscriptionCache, event_type=POSTED, source="ledger", major=1, scope=None, tenant="t1") -> set:
    return set(cache.match(tenant, event_type, source, major, scope).push)


def test_event_types_filter_or_all_types():
    """R-createSubscription-16: a subscription pinned to types gets only those; none pinned gets all."""
    pinned, everything = _row(types=[POSTED], sub_id="pinned"), _row(sub_id="all")
    cache = _cache(pinned, everything, _row(types=[], sub_id="empty-list"))
    assert _push(cache, POSTED) == {"pinned", "all", "empty-list"}
    assert _push(cache, CREATED) == {"all", "empty-list"}


def test_origin_restricts_to_one_producer():
    cache = _cache(_row(origin="billing", sub_id="billing-only"), _row(origin="", sub_id="any"))
    assert _push(cache, source="billing") == {"billing-only", "any"}
    assert _push(cache, source="ledger") == {"any"}


def test_schema_major_defaults_to_one_pin_and_event_majors_override():
    """R-createSubscription-19/20: no pin follows major 1; a pin moves it; event_majors wins per type."""
    cache = _cache(_row(sub_id="default"), _row(major=2, sub_id="pinned-2"),
                   _row(types=[POSTED, CREATED], majors={POSTED: 3}, major=2, sub_id="mixed"))
    assert _push(cache, POSTED, major=1) == {"default"}
    assert _push(cache, POSTED, major=2) == {"pinned-2"}
    assert _push(cache, POSTED, major=3) == {"mixed"}
    assert _push(cache, CREATED, major=2) == {"pinned-2", "mixed"}
    assert _push(cache, CREATED, major=3) == set()


def test_delegated_scope_gets_only_its_scope():
    """N16: a delegated subscription receives only events whose delegatedscope equals its scope."""
    cache = _cache(_row(scope="scope-a", sub_id="a"), _row(scope="scope-b", sub_id="b"), _row(sub_id="tenant-wide"))
    assert _push(cache, scope="scope-a") == {"a", "tenant-wide"}
    assert _push(cache, scope=None) == {"tenant-wide"}
    assert _push(cache, scope="scope-c") == {"tenant-wide"}


def test_push_subscriptions_get_jobs_whatever_their_state_and_pull_is_eligibility_only():
    """N23: a matching push subscription gets a job even while disabled, so its outcome is recorded
    (the engine ends it `disabled`, R-X-STATE-01); pull is counted, not pushed (R-getDashboard-20)."""
    cache = _cache(_row(sub_id="on"), _row(sub_id="off"), _row(kind="pull", sub_id="pull-1"),
                   _row(kind="pull", types=[CREATED], sub_id="pull-2"))
    match = cache.match("t1", POSTED, "ledger", 1, None)
    assert set(match.push) == {"on", "off"}
    assert match.pull == ("pull-1",)
    assert cache.match("t1", CREATED, "ledger", 1, None).pull == ("pull-1", "pull-2")


def test_other_tenants_never_match_and_reload_forgets_memo():
    cache = _cache(_row("t2", sub_id="foreign"))
    assert _push(cache) == set()
    assert _push(cache, tenant="t2") == {"foreign"}
    cache.load([subscription_from_row(_row("t2", types=[CREATED], sub_id="foreign"))], 2)
    assert _push(cache, tenant="t2") == set(), "the memo of the old set is gone after a reload"
    assert cache.reloads == 2 and cache.version == 2


def test_jobs_exactly_for_matching_push_subscriptions_on_the_real_broker(lane, tenant):
    """N16/N18, R-createSubscription-19/20, R-X-STATE-01, R-getDashboard-20 through a real worker."""
    subs = {
        "all": insert_subscription(tenant),
        "posted": insert_subscription(tenant, event_types=[POSTED]),
        "billing": insert_subscription(tenant, origin="billing"),
        "major2": insert_subscription(tenant, schema_major=2),
        "posted@2": insert_subscription(tenant, event_types=[POSTED, CREATED], event_majors={POSTED: 2}),
        "scoped": insert_subscription(tenant, delegated_scope="scope-x"),
        "disabled": insert_subscription(tenant, enabled=False),
        "auto": insert_subscription(tenant, auto_disabled=True),
        "pull": insert_subscription(tenant, sink_kind="pull", endpoint="pull://p1"),
        "pull-created": insert_subscription(tenant, sink_kind="pull", endpoint="pull://p2", event_types=[CREATED]),
    }
    events = {
        "e1": cloud_event(tenant),
        "e2": cloud_event(tenant, event_type=CREATED),
        "e3": cloud_event(tenant, source="billing", schemaversion="2.0.1"),
        "e4": cloud_event(tenant, delegatedscope="scope-x"),
        "e5": cloud_event(tenant, source="billing"),
    }
    # The disabled and auto-disabled subscriptions get jobs too: the engine ends them `disabled` (N23).
    always = {"all", "disabled", "auto"}
    expected = {"e1": always | {"posted"}, "e2": always | {"posted@2"}, "e3": {"major2", "posted@2"},
                "e4": always | {"posted", "scoped"}, "e5": always | {"posted", "billing"}}
    lane.send(*[(binary if index % 2 else structured)(event) for index, event in enumerate(events.values())])
    with ingest_worker():
        wait_until(lambda: lane.committed() == len(events))

    seq_of = dict(rows("SELECT ce_id, seq FROM event_log WHERE tenant_id = %s", (tenant,)))
    names = {value: key for key, value in subs.items()}
    jobs: dict[int, set[str]] = {}
    for sub_id, seq, state in rows("SELECT subscription_id::text, event_seq, state FROM delivery_jobs "
                                   "WHERE tenant_id = %s", (tenant,)):
        assert state == "pending"
        jobs.setdefault(seq, set()).add(names[sub_id])
    got = {name: jobs.get(seq_of[event.get_attributes()["id"]], set()) for name, event in events.items()}
    assert got == expected

    eligibility = {tuple(sorted(str(i) for i in ids)): n for ids, n in rows(
        "SELECT subscription_ids, events FROM pull_eligibility_hourly WHERE tenant_id = %s", (tenant,))}
    assert eligibility == {(subs["pull"],): 3, tuple(sorted([subs["pull"], subs["pull-created"]])): 1}

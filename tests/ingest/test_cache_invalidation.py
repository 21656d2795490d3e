"""The subscription cache follows ``subscription_versions``: one version check per batch, no per-event query.

First an in-process :class:`EventStore` on the real database (batches written directly), then a
running worker on the real broker seeing a subscription created and deleted through the service.
"""

from __future__ import annotations

from sqlalchemy import text

from hub.db import libpq_url, session_scope
from hub.subscription import service
from hub.subscription.models import Subscription
from hub.subscription.values import Caller, NewSubscription
from tests.ingest.conftest import binary, cloud_event, ingest_worker, rows, scalar, stored, wait_until
from hub.cloudevent.decode import Event, decode_parts
from workers.ingest.matching import SubscriptionCache
from workers.ingest.store import EventStore

POSTED = "transaction.posted"


def _create(tenant: str, **fields) -> str:
    new = NewSubscription(name=f"s-{fields.pop('name', 'x')}", sink_kind="webhook", endpoint="https://hooks.example/h",
                          event_types=[POSTED], origin=None, timeout_ms=None, schema_major=None, event_majors=None,
                          plan_tier="standard", delegated_scope=None, **fields)
    with session_scope() as session:
        sub, _secret = service.create_subscription(session=session, caller=Caller(tenant), new=new)
        sub.verification_state = "active"  # as a successful ping would leave it
        session.add(sub)
    return str(sub.id)


def _events(tenant: str, count: int, **extra) -> list[Event]:
    decoded = []
    for _ in range(count):
        message = binary(cloud_event(tenant, **extra))
        event = decode_parts(list(message.headers.items()), None, message.value, max_bytes=1 << 20)
        assert isinstance(event, Event)
        decoded.append(event)
    return decoded


class CountingCache(SubscriptionCache):
    def __init__(self) -> None:
        super().__init__()
        self.refreshes = 0
        self.matches = 0

    def refresh(self, cursor) -> bool:
        self.refreshes += 1
        return super().refresh(cursor)

    def match(self, *args):
        self.matches += 1
        return super().match(*args)


def test_store_reloads_only_when_the_version_moves(tenant):
    cache = CountingCache()
    store = EventStore(libpq_url(), cache)
    write = lambda events: store.write(events, [], lambda rejected: None)  # noqa: E731
    try:
        assert write(_events(tenant, 3)).jobs == 0
        assert (cache.reloads, cache.refreshes) == (1, 1)
        assert write(_events(tenant, 40)).jobs == 0
        assert (cache.reloads, cache.refreshes) == (1, 2), "40 events, one version check, no reload"
        assert cache.matches == 43

        sub_id = _create(tenant, name="a")
        outcome = write(_events(tenant, 5))
        assert (outcome.jobs, cache.reloads) == (5, 2), "created through the service: the next batch sees it"

        with session_scope() as session:
            sub = session.get(Subscription, sub_id)
            service.update_schema_major(session=session, sub=sub, schema_major=2, timeout_ms=None,
                                        timeout_given=False)
        assert write(_events(tenant, 2)).jobs == 0, "re-pinned to major 2: major-1 events no longer match"
        assert write(_events(tenant, 2, schemaversion="2.4.0")).jobs == 2
        assert cache.reloads == 3

        # A change written without moving the counter stays invisible: matching reads the cache only.
        with session_scope() as session:
            session.execute(text("UPDATE subscriptions SET schema_major = 3 WHERE id = :id"), {"id": sub_id})
        assert write(_events(tenant, 1, schemaversion="2.0.0")).jobs == 1
        assert cache.reloads == 3
        # ... and moving the counter makes the next batch use it.
        with session_scope() as session:
            session.execute(text("UPDATE subscription_versions SET version = version + 1 WHERE id = 1"))
        assert write(_events(tenant, 1, schemaversion="2.0.0")).jobs == 0, "re-pinned to major 3: no job"
        assert cache.reloads == 4

        with session_scope() as session:
            session.execute(text("UPDATE subscriptions SET schema_major = 2 WHERE id = :id"), {"id": sub_id})
            service.delete_subscription(session=session, caller=Caller(tenant), subscription_id=sub_id)
        assert write(_events(tenant, 3, schemaversion="2.0.0")).jobs == 0, "deleted: no job"
        assert cache.reloads == 5
    finally:
        store.close()
    assert scalar("SELECT count(*) FROM delivery_jobs WHERE tenant_id = %s", (tenant,)) == 8


def test_running_worker_picks_up_service_changes_on_its_next_batch(lane, tenant):
    first, second, third = (cloud_event(tenant, event_type=POSTED) for _ in range(3))
    with ingest_worker() as worker:
        lane.send(binary(first))
        wait_until(lambda: stored(tenant) == 1)
        reloads = worker.cache.reloads
        sub_id = _create(tenant, name="live")
        lane.send(binary(second))
        wait_until(lambda: stored(tenant) == 2)
        assert worker.cache.reloads > reloads
        with session_scope() as session:
            service.delete_subscription(session=session, caller=Caller(tenant), subscription_id=sub_id)
        lane.send(binary(third))
        wait_until(lambda: stored(tenant) == 3)
    jobs = rows("SELECT e.ce_id FROM delivery_jobs j JOIN event_log e ON e.tenant_id = j.tenant_id "
                "AND e.seq = j.event_seq WHERE j.tenant_id = %s", (tenant,))
    assert jobs == [(second.get_attributes()["id"],)]

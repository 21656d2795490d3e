"""N23 (D23): an event stored for a pull subscription is an ``available`` attempt, counted by the dashboard.

The events go through the real ingest store (``EventStore``); the figures are read through the routes.
"""

from __future__ import annotations

from sqlalchemy import text

from hub.db import get_engine
from tests.dashboard.conftest import pull
from tests.pull.conftest import event, store

OTHER_ORIGIN = "billing"


def dashboard_attempts(api) -> dict[str, int]:
    response = api.client.get("/v1/dashboard", params={"window_hours": "1"}, headers=api.headers(None))
    assert response.status_code == 200, response.text
    return response.json()["selected_period"]["push"]["delivery_attempts"]


def available_rows(sub_id: str) -> list[tuple]:
    with get_engine().connect() as connection:
        return list(connection.execute(text(
            "SELECT sink_kind, outcome, job_id, event_seq FROM delivery_attempts WHERE subscription_id = :id"
            " ORDER BY event_seq"), {"id": sub_id}))


def test_each_stored_event_is_available_to_each_matching_pull_subscription(api, tenant, coverage):
    """Two matching pull subscriptions and three events: six ``available`` attempts, one per pair."""
    first, second = pull(api), pull(api)
    elsewhere = pull(api, origin=OTHER_ORIGIN)  # the events come from "ledger": it matches none
    seqs = store(*[event(tenant, data={"n": n}) for n in range(3)])
    attempts = dashboard_attempts(api)
    assert attempts["available"] == 6
    assert attempts["delivered"] == attempts["failed"] == attempts["disabled"] == 0
    assert available_rows(first) == [("pull", "available", None, seq) for seq in seqs]
    assert available_rows(second) == [("pull", "available", None, seq) for seq in seqs]
    assert available_rows(elsewhere) == []
    health = api.client.get(f"/v1/subscriptions/{first}/health", headers=api.headers(None)).json()
    assert health["delivery_outcomes"].get("available") == 3


def test_a_redelivered_event_is_not_available_twice(api, tenant, coverage):
    """A record consumed again dedups (N19), so its event is not counted available a second time."""
    sub_id = pull(api)
    once = event(tenant, data={"n": 1})
    store(once)
    again = event(tenant, data={"n": 1})
    again.ce_id, again.attributes_json = once.ce_id, once.attributes_json
    store(again)
    assert dashboard_attempts(api)["available"] == 1
    assert len(available_rows(sub_id)) == 1

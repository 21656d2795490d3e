"""R-X-IDEM-05: an in-flight duplicate is ``409 idempotency_conflict``, with two real concurrent requests.

The API runs as a real ``hub api`` process on loopback. The first create is held inside its
transaction (its write of ``subscription_versions`` waits for a row lock this test holds), so it
is genuinely in flight when the second request with the same key and body arrives. The second is
refused and runs nothing; once released, the first commits, and the key replays its answer.
"""

from __future__ import annotations

import threading
import uuid

import httpx
import psycopg

from hub.db import libpq_url
from devkit.live import live_api
from devkit.poll import wait_until

ENV = {"HUB_CATALOG_REFRESHER_ENABLED": "false"}
WAITING_CREATE = """
SELECT count(*) FROM pg_stat_activity
 WHERE datname = current_database() AND wait_event_type = 'Lock' AND query LIKE 'UPDATE subscription_versions%'
"""


def _names(tenant: str, name: str) -> int:
    with psycopg.connect(libpq_url()) as connection:
        return connection.execute("SELECT count(*) FROM subscriptions WHERE tenant_id = %s AND name = %s",
                                  (tenant, name)).fetchone()[0]


def test_a_duplicate_while_the_first_is_in_flight_is_refused(tenant, make_token):
    name = f"in-flight-{uuid.uuid4().hex[:8]}"
    headers = {"Authorization": f"Bearer {make_token()}", "X-Idempotency": f"k-{uuid.uuid4().hex}"}
    body = {"name": name, "sink_kind": "pull"}
    first: dict[str, httpx.Response] = {}
    with live_api(ENV) as base, psycopg.connect(libpq_url()) as holder, \
            psycopg.connect(libpq_url(), autocommit=True) as observer:
        def create_first() -> None:
            with httpx.Client(base_url=base, timeout=60) as http:
                first["response"] = http.post("/v1/subscriptions", json=body, headers=headers)

        holder.execute("SELECT version FROM subscription_versions WHERE id = 1 FOR UPDATE")
        thread = threading.Thread(target=create_first, daemon=True)
        thread.start()
        try:
            wait_until(lambda: observer.execute(WAITING_CREATE).fetchone()[0] >= 1, 30, 0.05,
                       "the first create to be held inside its transaction")
            with httpx.Client(base_url=base, timeout=30) as http:
                duplicate = http.post("/v1/subscriptions", json=body, headers=headers)
            assert "response" not in first, "the first create finished before the duplicate was sent"
        finally:
            holder.rollback()  # releases the row: the first create goes on
            thread.join(60)
        assert duplicate.status_code == 409, duplicate.text
        assert duplicate.headers["content-type"].startswith("application/problem+json")
        assert duplicate.json()["code"] == "idempotency_conflict"
        assert "x-idempotency-replayed" not in duplicate.headers
        created = first["response"]
        assert created.status_code == 201, created.text
        assert "x-idempotency-replayed" not in created.headers
        assert _names(tenant, name) == 1  # the duplicate ran nothing
        with httpx.Client(base_url=base, timeout=30) as http:
            replay = http.post("/v1/subscriptions", json=body, headers=headers)
    assert replay.status_code == 201 and replay.headers["x-idempotency-replayed"] == "true"
    assert replay.json()["subscription"]["id"] == created.json()["subscription"]["id"]
    assert _names(tenant, name) == 1

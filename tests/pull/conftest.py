"""Pull inbox fixtures: events written by the real ingest store, subscriptions, reads and cursors."""

from __future__ import annotations

import uuid
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

import httpx
import orjson
import psycopg
import pytest

from hub.db import libpq_url
from tests.subscriptions.conftest import Catalog
from hub.cloudevent.decode import Event
from workers.ingest.matching import SubscriptionCache
from workers.ingest.store import EventStore

ORDERS = "orders.created"


def event(tenant: str, *, event_type: str = ORDERS, source: str = "ledger", version: str = "1.0.0",
          scope: str | None = None, data: Any = None, data_json: str | None = None,
          base64: bool = False) -> Event:
    """A decoded event as the ingest decoder hands it to the store."""
    attributes = {"id": str(uuid.uuid4()), "source": source, "type": event_type, "tenantid": tenant}
    if base64:
        attributes["data_base64"] = True
    if data_json is None and data is not None:
        data_json = orjson.dumps(data).decode()
    return Event(tenant, source, attributes["id"], event_type, version, int(version.split(".")[0]), scope, None,
                 None, orjson.dumps(attributes).decode(), data_json)


def store(*events: Event) -> list[int]:
    """Write one ingest batch through the real event store; returns the events' seqs."""
    writer = EventStore(libpq_url(), SubscriptionCache())
    try:
        writer.write(list(events), [], lambda _rejected: None)
    finally:
        writer.close()
    return [item.seq for item in events]


def store_many(tenant: str, count: int, **kwargs: Any) -> list[int]:
    return store(*[event(tenant, data={"n": i}, **kwargs) for i in range(count)])


def cursor_of(subscription_id: str) -> int | None:
    with psycopg.connect(libpq_url()) as connection:
        row = connection.execute("SELECT acked_seq FROM pull_cursors WHERE subscription_id = %s",
                                 (subscription_id,)).fetchone()
    return row[0] if row else None


@dataclass
class Inbox:
    """One tenant's credential against the subscription and pull routes."""

    client: Any
    token: str

    def auth(self, token: str | None = None) -> dict[str, str]:
        return {"Authorization": f"Bearer {token or self.token}"}

    def subscribe(self, token: str | None = None, payload_filter: dict[str, Any] | None = None, **body: Any) -> str:
        """Create a pull subscription; a payload filter is then set on its delivery options (N67)."""
        body.setdefault("name", f"pull-{uuid.uuid4().hex[:8]}")
        body.setdefault("sink_kind", "pull")
        headers = {**self.auth(token), "X-Idempotency": uuid.uuid4().hex}
        response = self.client.post("/v1/subscriptions", json=body, headers=headers)
        assert response.status_code == 201, response.text
        sub_id = response.json()["subscription"]["id"]
        if payload_filter is not None:
            headers["X-Idempotency"] = uuid.uuid4().hex
            put = self.client.put(f"/v1/subscriptions/{sub_id}/delivery-options", json={"filter": payload_filter},
                                  headers=headers)
            assert put.status_code == 200, put.text
        return sub_id

    def read(self, subscription_id: str | None, token: str | None = None, **params: Any) -> httpx.Response:
        if subscription_id is not None:
            params["subscription_id"] = subscription_id
        return self.client.get("/v1/events", params=params, headers=self.auth(token))

    def page(self, subscription_id: str, **params: Any) -> dict[str, Any]:
        response = self.read(subscription_id, **params)
        assert response.status_code == 200, response.text
        return response.json()

    def seqs(self, subscription_id: str, **params: Any) -> list[int]:
        return [item["seq"] for item in self.page(subscription_id, **params)["events"]]


@pytest.fixture
def inbox(client, make_token) -> Inbox:
    return Inbox(client=client, token=make_token())


@pytest.fixture
def catalog() -> Iterator[Catalog]:
    rows = Catalog()
    yield rows
    rows.remove()

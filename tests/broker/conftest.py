"""Broker fixtures: a private topic prefix, an in-process ingest worker on the real Kafka, a client."""

from __future__ import annotations

import uuid
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Any

import httpx
import pytest

from hub.auth.tokens import mint_token
from hub.kafka import ensure_topics
from tests.ingest.conftest import ingest_worker

ALL_FLAGS = {"*": {"data": "PRD", "topics": "RW"}}


@pytest.fixture
def broker_lane(override_settings: Callable[..., None]) -> str:
    """A unique topic prefix (its ``event-broker`` topic made up front) and a quick ingest."""
    prefix = f"b{uuid.uuid4().hex[:10]}."
    override_settings(kafka_topic_prefix=prefix, kafka_consumer_group=f"ingest-{prefix}",
                      kafka_dlq_group=f"dlq-{prefix}", ingest_batch_max_ms=20, ingest_batch_idle_ms=5,
                      ingest_retry_max_seconds=1, ingest_heartbeat_seconds=0.5, kafka_session_timeout_ms=6000)
    ensure_topics([f"{prefix}event-broker", f"{prefix}dlq", f"{prefix}streaming-hub"], partitions=1)
    return prefix


@pytest.fixture
def ingest(broker_lane: str) -> Iterator[Any]:
    with ingest_worker() as worker:
        yield worker


@dataclass
class Broker:
    """One tenant's view of the broker routes (``/api/{domain}/event``)."""

    client: Any
    tenant: str
    token: str

    def headers(self, token: str | None = None) -> dict[str, str]:
        return {"authorization": f"Bearer {token or self.token}"}

    def url(self, path: str, domain: str | None = None) -> str:
        return f"/api/{domain or self.tenant}/event{path}"

    def call(self, method: str, path: str, *, token: str | None = None, domain: str | None = None,
             headers: dict[str, str] | None = None, **kwargs: Any) -> httpx.Response:
        return self.client.request(method, self.url(path, domain), headers={**self.headers(token), **(headers or {})},
                                   **kwargs)

    def publish(self, topic: str, event_type: str = "order.shipped", data: Any = None, **kwargs: Any) -> dict:
        response = self.call("POST", f"/data/{topic}", json={"type": event_type, "data": data}, **kwargs)
        assert response.status_code == 201, response.text
        return response.json()["data"]

    def history(self, topic: str, **params: Any) -> list[dict]:
        response = self.call("GET", f"/data/{topic}", params=params)
        assert response.status_code == 200, response.text
        return response.json()["data"]

    def purge(self, topic: str, **params: Any) -> int:
        response = self.call("DELETE", f"/data/{topic}", params=params)
        assert response.status_code == 200, response.text
        return response.json()["data"]["deleted"]

    def put_config(self, topic: str, body: dict) -> dict:
        response = self.call("PUT", f"/topics/{topic}", json=body)
        assert response.status_code == 200, response.text
        return response.json()["data"]


def broker_token(tenant: str, grants: dict | None = None) -> str:
    return mint_token(tenant=tenant, permissions=[], event_broker=ALL_FLAGS if grants is None else grants)


@pytest.fixture
def broker(client, tenant: str) -> Broker:
    return Broker(client, tenant, broker_token(tenant))

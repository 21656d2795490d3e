"""Fixtures for the subscription routes: an API helper, catalog rows, the loopback allow-list."""

from __future__ import annotations

import uuid
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from typing import Any

import httpx
import pytest
from sqlalchemy import text

from hub.db import get_engine

PUBLIC_WEBHOOK = "https://93.184.215.14/hooks/ingest?token=abc"  # an IP literal: no DNS needed
LOOPBACK_WEBHOOK = "https://127.0.0.1:8443/hooks/ingest"
#: The delivery options' fields (docs/contract-notes.md N67): their own resource, never a subscription body's.
OPTION_FIELDS = {"filter", "headers", "rate_limit_per_second", "ordering"}


def new_key() -> str:
    return f"k-{uuid.uuid4().hex}"


@dataclass
class Api:
    """Calls the subscription routes as one tenant's credential."""

    client: Any
    token: str
    keys: list[str] = field(default_factory=list)

    def headers(self, key: str | None = "new", token: str | None = None) -> dict[str, str]:
        headers = {"Authorization": f"Bearer {token or self.token}"}
        if key == "new":
            key = new_key()
        if key is not None:
            headers["X-Idempotency"] = key
        return headers

    def create(self, body: dict[str, Any], *, key: str | None = "new", token: str | None = None) -> httpx.Response:
        return self.client.post("/v1/subscriptions", json=body, headers=self.headers(key, token))

    def created(self, **body: Any) -> dict[str, Any]:
        """Create and return the 201 body (a pull subscription unless told otherwise)."""
        body.setdefault("name", f"sub-{uuid.uuid4().hex[:8]}")
        body.setdefault("sink_kind", "pull")
        response = self.create(body)
        assert response.status_code == 201, response.text
        return response.json()

    def list(self, token: str | None = None, **params: Any) -> httpx.Response:
        return self.client.get("/v1/subscriptions", params=params, headers=self.headers(None, token))

    def get(self, sub_id: str, token: str | None = None) -> httpx.Response:
        return self.client.get(f"/v1/subscriptions/{sub_id}", headers=self.headers(None, token))

    def delete(self, sub_id: str, *, key: str | None = "new", token: str | None = None) -> httpx.Response:
        return self.client.delete(f"/v1/subscriptions/{sub_id}", headers=self.headers(key, token))

    def patch(self, sub_id: str, body: Any, *, key: str | None = "new", token: str | None = None) -> httpx.Response:
        return self.client.patch(f"/v1/subscriptions/{sub_id}", json=body, headers=self.headers(key, token))

    def reveal(self, sub_id: str, token: str | None = None) -> httpx.Response:
        return self.client.get(f"/v1/subscriptions/{sub_id}/endpoint", headers=self.headers(None, token))

    def rotate(self, sub_id: str, *, key: str | None = "new", token: str | None = None) -> httpx.Response:
        return self.client.post(f"/v1/subscriptions/{sub_id}/secret/rotate", headers=self.headers(key, token))

    def options(self, sub_id: str, token: str | None = None) -> httpx.Response:
        """GET …/delivery-options (N67)."""
        return self.client.get(f"/v1/subscriptions/{sub_id}/delivery-options", headers=self.headers(None, token))

    def put_options(self, sub_id: str, body: Any, *, key: str | None = "new", token: str | None = None
                    ) -> httpx.Response:
        """PUT …/delivery-options (N67): the whole set."""
        return self.client.put(f"/v1/subscriptions/{sub_id}/delivery-options", json=body,
                               headers=self.headers(key, token))

    def with_options(self, sub_id: str, **options: Any) -> dict[str, Any]:
        """PUT the options and return the 200 body (the options in force)."""
        response = self.put_options(sub_id, options)
        assert response.status_code == 200, response.text
        return response.json()


@pytest.fixture
def api(client, make_token) -> Api:
    return Api(client=client, token=make_token())


@pytest.fixture
def allow_loopback(override_settings) -> None:
    """Webhooks at 127.0.0.1 are accepted (a private deployment's allow-list)."""
    override_settings(egress_allow_cidrs="127.0.0.0/8")


def problem(response: httpx.Response, status: int, code: str | None) -> dict[str, Any]:
    """The problem+json body, after checking status, media type, title and code."""
    assert response.status_code == status, response.text
    assert response.headers["content-type"].startswith("application/problem+json"), response.headers
    body = response.json()
    assert body["status"] == status and body["title"]
    if code is None:
        assert "code" not in body
    else:
        assert body["code"] == code, body
        assert body["type"].endswith(code) and body["detail"]
    return body


@dataclass
class Catalog:
    """Rows of ``catalog_events`` under producer targets this test owns (removed afterwards)."""

    targets: list[str] = field(default_factory=list)

    def add(self, source: str, events: list[tuple[str, str, int]]) -> None:
        target = f"test-subs-{uuid.uuid4().hex[:10]}"
        self.targets.append(target)
        with get_engine().begin() as connection:
            connection.execute(text(
                "INSERT INTO catalog_producers (target, manifest_url, source, topic, consecutive_failures) "
                "VALUES (:t, :u, :s, :topic, 0)"), {"t": target, "u": f"http://{target}/manifest", "s": source,
                                                   "topic": f"lerian.streaming.{source}"})
            for resource_type, event_type, major in events:
                connection.execute(text(
                    "INSERT INTO catalog_events (producer_target, resource_type, event_type, schema_major, source, "
                    "topic, schema_version, data_schema, description) VALUES (:t, :r, :e, :m, :s, :topic, :v, '', '')"),
                    {"t": target, "r": resource_type, "e": event_type, "m": major, "s": source,
                     "topic": f"lerian.streaming.{source}", "v": f"{major}.0.0"})

    def remove(self) -> None:
        with get_engine().begin() as connection:
            for target in self.targets:
                connection.execute(text("DELETE FROM catalog_producers WHERE target = :t"), {"t": target})


@pytest.fixture
def catalog() -> Iterator[Catalog]:
    """A catalog with producer events; each test names unique event types so runs never collide."""
    rows = Catalog()
    yield rows
    rows.remove()


def unique_source() -> str:
    return f"src{uuid.uuid4().hex[:8]}"


Factory = Callable[..., dict[str, Any]]


def db_row(sub_id: str) -> dict[str, Any]:
    """The stored row, as the database holds it."""
    with get_engine().connect() as connection:
        row = connection.execute(text("SELECT * FROM subscriptions WHERE id = :id"), {"id": sub_id}).mappings().one()
    return dict(row)


def subscription_version() -> int:
    with get_engine().connect() as connection:
        return connection.execute(text("SELECT version FROM subscription_versions WHERE id = 1")).scalar_one()

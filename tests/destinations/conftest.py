"""Fixtures for the destination routes: an API helper, real queues, buses and exchanges."""

from __future__ import annotations

import uuid
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

import httpx
import pytest

from hub.config import get_settings
from tests.subscriptions.conftest import Api
from devkit.destinations import AwsDestinations, Rabbit, aws_destinations, rabbit  # noqa: F401 (fixtures)

PRINCIPAL = "arn:aws:iam::111122223333:role/streaming-hub"
TEMPLATE = "https://hub-artifacts.example.com/delivery-role.yaml"


@dataclass
class DestinationApi(Api):
    """The subscription API helper plus the four destination routes."""

    def put_credential(self, sub_id: str, body: Any, *, raw: bytes | None = None,
                       token: str | None = None) -> httpx.Response:
        headers = self.headers(None, token)
        if raw is not None:
            return self.client.put(f"/v1/subscriptions/{sub_id}/credential", content=raw,
                                   headers={**headers, "Content-Type": "application/json"})
        return self.client.put(f"/v1/subscriptions/{sub_id}/credential", json=body, headers=headers)

    def artifacts(self, sub_id: str, token: str | None = None) -> httpx.Response:
        return self.client.get(f"/v1/subscriptions/{sub_id}/setup-artifacts", headers=self.headers(None, token))

    def grant(self, sub_id: str, body: Any, *, key: str | None = "new", token: str | None = None) -> httpx.Response:
        return self.client.put(f"/v1/subscriptions/{sub_id}/delegated-grant", json=body,
                               headers=self.headers(key, token))

    def verify(self, sub_id: str, token: str | None = None) -> httpx.Response:
        return self.client.post(f"/v1/subscriptions/{sub_id}/verify", headers=self.headers(None, token))

    def subscription(self, kind: str, endpoint: str | None) -> str:
        body: dict[str, Any] = {"sink_kind": kind, "name": f"dest-{uuid.uuid4().hex[:8]}"}
        if endpoint is not None:
            body["endpoint"] = endpoint
        return self.created(**body)["subscription"]["id"]


@pytest.fixture
def api(client, make_token) -> DestinationApi:
    return DestinationApi(client=client, token=make_token())


@pytest.fixture(autouse=True)
def _hub_identity(monkeypatch) -> None:
    """The hub's own AWS identity (for STS) is a test key; moto accepts any."""
    monkeypatch.setenv("AWS_ACCESS_KEY_ID", "testing")
    monkeypatch.setenv("AWS_SECRET_ACCESS_KEY", "testing")


@pytest.fixture
def loopback_broker(override_settings) -> None:
    """The local broker is on 127.0.0.1: allowed the way a private deployment allows its own ranges."""
    override_settings(egress_allow_cidrs="127.0.0.0/8")


@pytest.fixture
def setup_configured(override_settings) -> None:
    override_settings(aws_hub_principal_arn=PRINCIPAL, aws_setup_template_url=TEMPLATE)

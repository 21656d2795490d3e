"""The consumer service against real services: `hub api`, `hub grpc`, `hub ingest` and `hub consumer-relay`
as child processes on a scratch PostgreSQL, a topic prefix of their own and the stack's RabbitMQ; events
are published through the publisher (REST), stored by ingest, relayed onto the tenant's exchange, and
consumed by a gRPC client generated from the committed protos."""

from __future__ import annotations

import uuid
from collections.abc import Iterator
from contextlib import ExitStack, contextmanager
from dataclasses import dataclass
from typing import Any

import grpc
import httpx
import pytest

from hub.auth.tokens import mint_token
from hub.consumer.access import TRIAGE, consumer_claims
from hub.grpcapi.stubs import consumer_stubs
from hub.kafka import ensure_topics
from tests.publisher.conftest import SOURCE, grpc_server, hub_env, now_text, publisher_token
from devkit.live import live_api
from devkit.processes import start_hub, stop
from devkit.scratchdb import migrated_scratch_database

pb, pb_grpc = consumer_stubs()
DELIVERY_LIMIT = 3
GRACE_SECONDS = 3
TEST_SETTINGS = {"HUB_CONSUMER_DELIVERY_LIMIT": str(DELIVERY_LIMIT),
                 "HUB_CONSUMER_RECONNECT_GRACE_SECONDS": str(GRACE_SECONDS), "HUB_CONSUMER_SWEEP_SECONDS": "1",
                 "HUB_CONSUMER_AUTOACK_DELAY_SECONDS": "0.3", "HUB_CONSUMER_RELAY_POLL_SECONDS": "0.2"}


@dataclass
class ConsumerHub:
    rest: str
    grpc_address: str
    db: str
    env: dict[str, str]

    def publish(self, tenant: str, event_type: str, message: dict[str, Any], resource_id: str | None = None) -> None:
        """Publish one event through the seed's REST publisher; it must be accepted."""
        event: dict[str, Any] = {"event_type": event_type, "message": message, "occurred_at": now_text()}
        if resource_id is not None:
            event["resource"] = {"resource_id": resource_id}
        answer = httpx.post(f"{self.rest}/api/v1beta/events", json={"event": event}, timeout=30,
                            headers={"Authorization": f"Bearer {publisher_token(tenant)}"})
        assert answer.status_code == 200 and answer.json()["result"]["success"], answer.text


def consumer_token(tenant: str, *, permissions: list[str] | None = None, types: list[str] | None = None,
                   subject: str = "consumer@example.com") -> str:
    """A consumer token of TENANT: the three durable-queue permissions unless PERMISSIONS is given."""
    granted, claims = consumer_claims([], types)
    return mint_token(tenant=tenant, permissions=granted if permissions is None else permissions, claims=claims,
                      subject=subject)


def operator_token() -> str:
    return mint_token(tenant=None, permissions=[TRIAGE], subject="operator@example.com")


def metadata(token: str) -> list[tuple[str, str]]:
    return [("authorization", f"Bearer {token}")]


@contextmanager
def consumer_processes(**settings: str) -> Iterator[ConsumerHub]:
    """The processes on a scratch database and topic prefix; SETTINGS add to (or replace) the test settings."""
    prefix = f"c{uuid.uuid4().hex[:10]}."
    ensure_topics([f"{prefix}{SOURCE}", f"{prefix}dlq", f"{prefix}streaming-hub"], partitions=2)
    with ExitStack() as stack:
        db_url = stack.enter_context(migrated_scratch_database())
        env = hub_env(db_url, prefix, **{**TEST_SETTINGS, **settings})
        for command in ("ingest", "consumer-relay"):
            process = start_hub(command, env)
            stack.callback(stop, process)
        rest = stack.enter_context(live_api(env))
        address = stack.enter_context(grpc_server(env))
        yield ConsumerHub(rest, address, db_url.replace("postgresql+psycopg://", "postgresql://", 1), env)


@pytest.fixture(scope="module")
def consumer_hub() -> Iterator[ConsumerHub]:
    with consumer_processes() as hub:
        yield hub


@pytest.fixture
def stub(consumer_hub: ConsumerHub) -> Iterator[Any]:
    with grpc.insecure_channel(consumer_hub.grpc_address) as channel:
        yield pb_grpc.EventConsumerServiceStub(channel)


@pytest.fixture
def tenant() -> str:
    return f"tenant-{uuid.uuid4().hex[:8]}"


def unique(name: str) -> str:
    return f"{name}-{uuid.uuid4().hex[:8]}"

"""The publisher against real services: `hub api`, `hub grpc`, `hub ingest` and `hub deliver` as child
processes on a scratch PostgreSQL and a topic prefix of their own, a real HTTPS webhook receiver,
and a gRPC client generated from the committed protos (hub.grpcapi.stubs)."""

from __future__ import annotations

import subprocess
import uuid
from collections.abc import Callable, Iterator
from contextlib import ExitStack, contextmanager
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

import grpc
import httpx
import pytest
from google.protobuf import struct_pb2, timestamp_pb2

from hub.auth.tokens import mint_token
from hub.grpcapi.stubs import publisher_stubs
from hub.kafka import ensure_topics
from hub.publisher.access import publish_claims
from tests.deliver.conftest import sql
from devkit.dnsserver import dns_server
from tests.sinks.conftest import HOOK_HOST, ca, ca_bundle  # noqa: F401 (shared fixtures)
from devkit.live import live_api
from devkit.pg import free_port
from devkit.poll import wait_until
from devkit.processes import start_hub, stop
from devkit.receiver import Receiver, https_receiver
from devkit.scratchdb import migrated_scratch_database

pb, pb_grpc = publisher_stubs()
SOURCE = "event-publisher-service"


@dataclass
class PublisherHub:
    """The running processes' addresses and their scratch database."""

    rest: str
    grpc_address: str
    db: str  # libpq URL of the scratch database
    receiver: Receiver
    prefix: str
    env: dict[str, str]

    def stored(self, tenant: str) -> list[dict[str, Any]]:
        """The tenant's event-log rows from the publisher, oldest first."""
        rows = sql(self.db, "SELECT ce_id, event_type, source, attributes, data FROM event_log "
                            "WHERE tenant_id = %s ORDER BY seq", (tenant,))
        return [{"id": r[0], "type": r[1], "source": r[2], "attributes": r[3], "data": r[4]} for r in rows]

    def wait_stored(self, tenant: str, count: int, timeout: float = 60.0) -> list[dict[str, Any]]:
        wait_until(lambda: len(self.stored(tenant)) >= count, timeout, 0.2, f"{count} events stored for {tenant}")
        return self.stored(tenant)


def publisher_token(tenant: str, types: list[str] | None = None, *, permissions: list[str] | None = None,
                    subject: str = "publisher@example.com") -> str:
    """A token that may publish TYPES (None: any type) for TENANT."""
    granted, claims = publish_claims(permissions or [], types or ["*"])
    return mint_token(tenant=tenant, permissions=granted if permissions is None else permissions,
                      claims=claims, subject=subject)


def wait_for_grpc(address: str, process: subprocess.Popen) -> None:
    def serving() -> bool:
        if process.poll() is not None:
            raise RuntimeError(f"hub grpc exited: {process.stderr.read().decode()[-2000:]}")
        with grpc.insecure_channel(address) as channel:
            try:
                grpc.channel_ready_future(channel).result(timeout=1)
            except grpc.FutureTimeoutError:
                return False
            return True

    wait_until(serving, 30, 0.2, "hub grpc to accept connections")


@contextmanager
def grpc_server(env: dict[str, str]) -> Iterator[str]:
    """`hub grpc` on a free port with ENV; yields its address."""
    port = free_port()
    process = start_hub("grpc", {**env, "HUB_GRPC_PORT": str(port)}, stderr=subprocess.PIPE)
    address = f"127.0.0.1:{port}"
    try:
        wait_for_grpc(address, process)
        yield address
    finally:
        stop(process, timeout=10)


def hub_env(db_url: str, prefix: str, **extra: str) -> dict[str, str]:
    """The children's settings: the scratch database, a topic prefix and consumer group of their own."""
    return {"HUB_DATABASE_URL": db_url, "HUB_KAFKA_TOPIC_PREFIX": prefix,
            "HUB_KAFKA_CONSUMER_GROUP": f"ingest-{prefix}",
            "HUB_LOG_LEVEL": "WARNING", "HUB_DELIVER_IDLE_POLL_SECONDS": "0.05",
            "HUB_DELIVER_RETRY_LADDER_SECONDS": "0.5,0.5", **extra}


@pytest.fixture(scope="module")
def publisher_hub(ca, ca_bundle) -> Iterator[PublisherHub]:  # noqa: ANN001, F811
    prefix = f"p{uuid.uuid4().hex[:10]}."
    ensure_topics([f"{prefix}{SOURCE}", f"{prefix}dlq", f"{prefix}streaming-hub"], partitions=2)
    zone = {HOOK_HOST: [("A", "127.0.0.1")]}
    with ExitStack() as stack:
        db_url = stack.enter_context(migrated_scratch_database())
        dns = stack.enter_context(dns_server(zone))
        receiver = stack.enter_context(https_receiver(ca, (HOOK_HOST,)))
        env = hub_env(db_url, prefix, HUB_DNS_NAMESERVERS=dns.address, HUB_EGRESS_ALLOW_CIDRS="127.0.0.0/8",
                      HUB_WEBHOOK_CA_BUNDLE=str(ca_bundle))
        for command in ("ingest", "deliver"):
            process = start_hub(command, env)
            stack.callback(stop, process)
        rest = stack.enter_context(live_api(env))
        address = stack.enter_context(grpc_server(env))
        yield PublisherHub(rest, address, db_url.replace("postgresql+psycopg://", "postgresql://", 1), receiver,
                           prefix, env)


@pytest.fixture
def rest(publisher_hub: PublisherHub) -> Iterator[httpx.Client]:
    with httpx.Client(base_url=publisher_hub.rest, timeout=30) as client:
        yield client


@pytest.fixture
def stub(publisher_hub: PublisherHub) -> Iterator[Any]:
    with grpc.insecure_channel(publisher_hub.grpc_address) as channel:
        yield pb_grpc.EventPublishingServiceStub(channel)


def bearer(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


def metadata(token: str) -> list[tuple[str, str]]:
    """The seed's gRPC authentication: ``[('authorization', 'Bearer YOUR_TOKEN')]``."""
    return [("authorization", f"Bearer {token}")]


def proto_event(event_type: str, message: dict[str, Any], occurred_at: str,
                resource_id: str | None = None) -> Any:
    """An ``Event`` message built as the seed's gRPC example builds it."""
    message_struct = struct_pb2.Struct()
    message_struct.update(message)
    timestamp = timestamp_pb2.Timestamp()
    timestamp.FromJsonString(occurred_at)
    resource = pb.EventResource(resource_id=resource_id) if resource_id is not None else None
    return pb.Event(event_type=event_type, message=message_struct, occurred_at=timestamp, resource=resource)


def unique_type(name: str) -> str:
    return f"myapp.{name}.{uuid.uuid4().hex[:6]}"


def now_text() -> str:
    return datetime.now(UTC).isoformat().replace("+00:00", "Z")


Factory = Callable[..., str]

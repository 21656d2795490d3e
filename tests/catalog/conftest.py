"""Catalog test fixtures: a scratch database of its own and real loopback manifest servers."""

from __future__ import annotations

import json
import threading
import time
import uuid
from collections.abc import Callable, Iterator
from contextlib import ExitStack
from dataclasses import dataclass, field
from typing import Any

import psycopg
import pytest

from devkit.httpserver import serve
from devkit.scratchdb import hub_database, migrated_scratch_database


@pytest.fixture(scope="session")
def scratch_url() -> Iterator[str]:
    """One migrated scratch cluster for the catalog tests (the catalog tables are global)."""
    with migrated_scratch_database() as url:
        yield url


@pytest.fixture
def catalog_db(scratch_url: str, override_settings: Callable[..., None]) -> Iterator[str]:
    """The hub pointed at the scratch database with empty catalog tables; no background refresher."""
    with psycopg.connect(scratch_url.replace("+psycopg", "")) as connection:
        connection.execute("TRUNCATE catalog_events, catalog_producers")
    with hub_database(scratch_url, override_settings, catalog_refresher_enabled=False,
                      catalog_fetch_timeout_seconds=1.0):
        yield scratch_url


def manifest(source: str, events: list[dict[str, Any]], topic: str | None = None) -> dict[str, Any]:
    return {"source": source, "topic": topic or f"lerian.streaming.{source}", "events": events}


def event(resource_type: str, event_type: str, version: str = "1.0.0", **extra: Any) -> dict[str, Any]:
    return {"resourceType": resource_type, "eventType": event_type, "schemaVersion": version,
            "description": f"{resource_type} {event_type}", **extra}


@dataclass
class ManifestServer:
    """A real HTTP producer on loopback whose answer a test can change between rounds."""

    status: int = 200
    body: bytes = b"{}"
    delay_seconds: float = 0.0
    requests: int = 0
    url: str = ""
    lock: threading.Lock = field(default_factory=threading.Lock)

    def publish(self, document: dict[str, Any]) -> None:
        self.status, self.body = 200, json.dumps(document).encode()

    @property
    def target(self) -> str:
        return self.url.split("://", 1)[1].split("/", 1)[0]

    def handle(self, method: str, path: str, _: bytes) -> tuple[int, dict[str, str], bytes]:
        with self.lock:
            self.requests += 1
        if self.delay_seconds:
            time.sleep(self.delay_seconds)
        return self.status, {"Content-Type": "application/json"}, self.body


@pytest.fixture
def producer_server() -> Iterator[Callable[..., ManifestServer]]:
    """Start real manifest servers: ``producer_server(document)``."""
    with ExitStack() as stack:
        def start(document: dict[str, Any] | None = None) -> ManifestServer:
            server = ManifestServer()
            if document is not None:
                server.publish(document)
            base = stack.enter_context(serve(server.handle))
            server.url = f"{base}/manifest.json"
            return server

        yield start


@pytest.fixture
def configure(override_settings: Callable[..., None]) -> Callable[..., None]:
    """Set the configured manifest URLs (and any other catalog setting) for this test."""
    def apply(urls: list[str], **settings: object) -> None:
        override_settings(catalog_manifest_urls=",".join(urls), **settings)

    return apply


@pytest.fixture
def unique() -> str:
    return uuid.uuid4().hex[:8]

"""Secrets fixtures: fresh random encryption keys, and subscription rows sealed under them."""

from __future__ import annotations

import base64
import os
import uuid
from collections.abc import Callable

import pytest

from hub.db import session_scope
from hub.subscription.models import Subscription


def new_key(key_id: str | None = None) -> str:
    """A ``key_id:base64(32 bytes)`` entry with fresh random material."""
    return f"{key_id or 'k' + uuid.uuid4().hex[:8]}:{base64.b64encode(os.urandom(32)).decode()}"


def material(entry: str) -> str:
    return entry.split(":", 1)[1]


@pytest.fixture
def use_keys(override_settings: Callable[..., None]) -> Callable[..., None]:
    """Configure HUB_ENCRYPTION_KEYS (newest first) for the rest of the test."""

    def apply(*entries: str) -> None:
        override_settings(encryption_keys=",".join(entries))

    return apply


@pytest.fixture
def insert_subscription(tenant: str) -> Callable[..., Subscription]:
    """Insert a Subscription row for the test's fresh tenant directly through SQLModel."""

    def insert(**fields: object) -> Subscription:
        values: dict[str, object] = {"tenant_id": tenant, "name": f"sub-{uuid.uuid4().hex[:8]}",
                                     "sink_kind": "webhook", "endpoint": "https://hooks.example.test/in",
                                     "credential_kind": "signing_secret"}
        values.update(fields)
        row = Subscription(**values)
        with session_scope() as session:
            session.add(row)
        return row

    return insert

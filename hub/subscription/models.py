"""The subscription table: one tenant's delivery destination and its secrets (encrypted)."""

from __future__ import annotations

import uuid
from datetime import datetime
from typing import Any

from sqlalchemy import Column, Index, text
from sqlalchemy.dialects.postgresql import JSONB
from sqlmodel import Field, SQLModel

from hub.ids import new_id
from hub.sqltypes import tz_field


def _jsonb_or_null() -> Any:
    """A JSONB column where Python None is SQL NULL (not JSON null), so `IS NULL` means unset."""
    return Field(default=None, sa_column=Column(JSONB(none_as_null=True), nullable=True))


class Subscription(SQLModel, table=True):
    __tablename__ = "subscriptions"
    __table_args__ = (
        Index(
            "uq_subscriptions_live_name",
            "tenant_id",
            text("coalesce(delegated_scope, '')"),
            "name",
            unique=True,
            postgresql_where=text("deleted_at IS NULL"),
        ),
        Index("ix_subscriptions_tenant_id_desc", "tenant_id", text("id DESC")),
    )

    id: uuid.UUID = Field(default_factory=new_id, primary_key=True)
    tenant_id: str = Field(nullable=False)
    delegated_scope: str | None = None
    name: str
    sink_kind: str
    endpoint: str
    event_types: list[str] | None = _jsonb_or_null()
    event_majors: dict[str, int] | None = _jsonb_or_null()
    origin: str | None = None
    schema_major: int | None = None
    timeout_ms: int | None = None
    signature_version: str = "v1"
    plan_tier: str = "standard"
    enabled: bool = True
    verification_state: str = "pending_verification"
    credential_kind: str = "none"
    # Envelope strings from hub.secrets (key id + AES-GCM ciphertext); never plain text.
    secret_current: str | None = None
    secret_previous: str | None = None
    secret_rotated_at: datetime | None = tz_field()
    secret_overlap_until: datetime | None = tz_field()
    credential_sealed: str | None = None
    credential_updated_at: datetime | None = tz_field()
    delegated_grant: dict[str, Any] | None = _jsonb_or_null()
    external_id: str | None = None
    # The payload filter as the caller sent it (N53); ingest compiles it when it loads the cache.
    payload_filter: dict[str, Any] | None = _jsonb_or_null()
    # Webhook static headers (N54): [{name, secret, value | sealed}]; a secret value only as an envelope.
    custom_headers: list[dict[str, Any]] | None = _jsonb_or_null()
    # Requests per second the deliver engine sends this destination at most (N56); NULL: no limit.
    rate_limit_per_second: int | None = None
    # Ordered delivery per key (N77): {"key": <attribute>, "on_dead_letter": "block" | "skip"}; NULL: unordered.
    ordering: dict[str, Any] | None = _jsonb_or_null()
    auto_disabled: bool = False
    disabled_reason: str = ""
    created_at: datetime = tz_field(nullable=False, default_now=True)
    updated_at: datetime = tz_field(nullable=False, default_now=True)
    deleted_at: datetime | None = tz_field()


class SubscriptionVersion(SQLModel, table=True):
    """A single-row change counter: workers reload their subscription cache when it moves."""

    __tablename__ = "subscription_versions"

    id: int = Field(default=1, primary_key=True)
    version: int = 0

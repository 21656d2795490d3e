"""The catalog snapshot: producers the hub tracks and the events their manifests declare."""

from __future__ import annotations

from datetime import datetime

from sqlmodel import Field, SQLModel

from hub.sqltypes import tz_field


class CatalogProducer(SQLModel, table=True):
    __tablename__ = "catalog_producers"

    target: str = Field(primary_key=True)
    manifest_url: str
    source: str | None = None
    topic: str | None = None
    fetched_at: datetime | None = tz_field()
    last_refresh_failed_at: datetime | None = tz_field()
    last_refresh_error_class: str | None = None
    consecutive_failures: int = 0
    breaker_open_until: datetime | None = tz_field()


class CatalogEvent(SQLModel, table=True):
    __tablename__ = "catalog_events"

    producer_target: str = Field(primary_key=True, foreign_key="catalog_producers.target", ondelete="CASCADE")
    resource_type: str = Field(primary_key=True)
    event_type: str = Field(primary_key=True)
    schema_major: int = Field(primary_key=True)
    source: str
    topic: str
    schema_version: str
    data_schema: str = ""
    description: str = ""

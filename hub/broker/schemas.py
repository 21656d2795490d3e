"""The broker's request and response shapes, for the OpenAPI document (seed 003's field names)."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from pydantic import BaseModel, ConfigDict, Field

from hub.bodies import documented_models


class BrokerEventItem(BaseModel):
    """One event, as publish answers it and history and live frames show it."""

    id: str = Field(description="The event's uuid (its CloudEvent id).")
    topic: str = Field(description="The topic it was published on, e.g. `orders:1042`.")
    type: str
    data: Any = Field(default=None, description="Any JSON value.")
    ts: int = Field(description="Publish time, milliseconds since the epoch.")


class PublishedEvent(BaseModel):
    data: BrokerEventItem


class BrokerHistory(BaseModel):
    data: list[BrokerEventItem] = Field(description="Newest first.")


class PurgeCount(BaseModel):
    model_config = ConfigDict(title="PurgeCount")

    class Deleted(BaseModel):
        deleted: int

    data: Deleted


class TopicConfig(BaseModel):
    """A Main Topic's effective history window (a null bound is unbounded)."""

    topic: str
    max_events: int | None
    ttl_seconds: int | None
    default: bool = Field(description="`true` when nothing is stored: the system default window.")
    inserted_at: datetime | None
    updated_at: datetime | None


class TopicConfigAnswer(BaseModel):
    data: TopicConfig


class TopicConfigList(BaseModel):
    data: list[TopicConfig] = Field(description="Stored configs, ordered by topic.")


class PublishBody(BaseModel):
    """A publish: the type (docs/contract-notes.md N34) and any JSON data."""

    type: str = Field(min_length=1, max_length=128)
    data: Any = None


class TopicConfigBody(BaseModel):
    """A whole config: an omitted bound is null (unbounded); a bound is greater than 0."""

    max_events: int | None = Field(default=None, gt=0)
    ttl_seconds: int | None = Field(default=None, gt=0)


for _model in (PublishBody, TopicConfigBody):
    if _model not in documented_models:
        documented_models.append(_model)

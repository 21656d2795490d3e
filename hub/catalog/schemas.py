"""Response models of ``GET /v1/catalog``, shaped exactly like the contract's schemas.

The route renders its body from plain dicts (so ``dataSchema`` can be omitted while the nullable
producer fields are always present); these models document that body in the OpenAPI document.
"""

from __future__ import annotations

from datetime import datetime
from typing import Annotated, Literal

from pydantic import ConfigDict, WithJsonSchema

from hub.schema_base import ClosedModel

NullableString = Annotated[str | None, WithJsonSchema({"type": ["string", "null"]})]
NullableDateTime = Annotated[datetime | None, WithJsonSchema({"type": ["string", "null"], "format": "date-time"})]
ErrorClass = Annotated[
    Literal["fetch_failed", "invalid_manifest", "persist_failed", "breaker_open"] | None,
    WithJsonSchema({"type": ["string", "null"],
                    "enum": ["fetch_failed", "invalid_manifest", "persist_failed", "breaker_open", None]}),
]


class CatalogEvent(ClosedModel):
    model_config = ConfigDict(title="CatalogEvent")

    eventKey: str
    source: str
    resourceType: str
    eventType: str
    topic: str
    schemaVersion: str
    schemaMajor: int
    dataSchema: str = ""
    description: str


class CatalogProducer(ClosedModel):
    model_config = ConfigDict(title="CatalogProducer")

    target: str
    source: NullableString
    fetched_at: NullableDateTime
    last_refresh_failed_at: NullableDateTime
    last_refresh_error_class: ErrorClass


class CatalogResponse(ClosedModel):
    model_config = ConfigDict(title="CatalogResponse")

    events: list[CatalogEvent]
    producers: list[CatalogProducer]

"""The base of the API's request and response shapes.

Every object the contract defines is closed (``additionalProperties: false``): a shape accepts no
property beyond its fields and the OpenAPI document says so. A shape states that once, by
deriving from :class:`ClosedModel`; its own ``model_config`` adds to it (a ``title``, say).
"""

from __future__ import annotations

from typing import Annotated, Any

from pydantic import BaseModel, ConfigDict, Field, WithJsonSchema


#: A 64-bit integer (a sequence number, a lag in milliseconds), documented as the contract types it.
Int64 = Annotated[int, WithJsonSchema({"type": "integer", "format": "int64"})]
#: A URI (an AWS console link), documented with the contract's ``format: uri``.
Uri = Annotated[str, WithJsonSchema({"type": "string", "format": "uri"})]


class ClosedModel(BaseModel):
    """A JSON object with exactly its declared fields."""

    model_config = ConfigDict(extra="forbid")


def _undocumented_default(schema: dict[str, Any]) -> None:
    schema.pop("default", None)


def omittable() -> Any:
    """A field the body may leave out: read as None, documented with no ``default`` (the contract
    types these fields without ``null``, and a ``default: null`` would break their own schema)."""
    return Field(default=None, json_schema_extra=_undocumented_default)

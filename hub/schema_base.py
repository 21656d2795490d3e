"""The base of the API's request and response shapes.

Every object the contract defines is closed (``additionalProperties: false``): a shape accepts no
property beyond its fields and the OpenAPI document says so. A shape states that once, by
deriving from :class:`ClosedModel`; its own ``model_config`` adds to it (a ``title``, say).
"""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict


class ClosedModel(BaseModel):
    """A JSON object with exactly its declared fields."""

    model_config = ConfigDict(extra="forbid")

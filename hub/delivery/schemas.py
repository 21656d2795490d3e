"""The ping answer's shape, for the API description (the route itself answers with plain JSON)."""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict


class ProbeResult(BaseModel):
    """The classified result of a synchronous probe; ``detail`` only on failure."""

    model_config = ConfigDict(extra="forbid")

    outcome: Literal["ok", "failed"]
    statusCode: int  # noqa: N815 (the contract's name)
    errorClass: str  # noqa: N815
    detail: str | None = None

"""The contract's ``ProbeResult`` shape, for the API description of ping, verify and the credential PUT
(the routes answer with the plain JSON that ``hub.delivery.probe.probe_result`` builds)."""

from __future__ import annotations

from typing import Literal

from pydantic import Field

from hub.schema_base import ClosedModel


class ProbeResult(ClosedModel):
    """The classified result of a synchronous probe; ``detail`` only on failure."""

    outcome: Literal["ok", "failed"]
    statusCode: int  # noqa: N815 (the contract's name)
    errorClass: str  # noqa: N815
    detail: str = Field(default=None)  # type: ignore[assignment] (absent on success, never null)

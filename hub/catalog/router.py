"""``GET /v1/catalog`` (getCatalog)."""

from __future__ import annotations

from typing import Annotated, Any

import orjson
from fastapi import APIRouter, Depends
from fastapi.responses import JSONResponse

from hub.auth.deps import require_permission
from hub.auth.tokens import Principal
from hub.catalog.schemas import CatalogResponse
from hub.catalog.service import catalog_document
from hub.db import SessionDep
from hub.ratelimit.service import Allowance, metered

router = APIRouter(tags=["Catalog"])


class CanonicalJSONResponse(JSONResponse):
    """JSON rendered the same way every time for the same content (R-getCatalog-03)."""

    def render(self, content: Any) -> bytes:
        return orjson.dumps(content)


@router.get(
    "/v1/catalog",
    operation_id="getCatalog",
    summary="List the event catalog",
    response_model=None,
    response_class=CanonicalJSONResponse,
    responses={200: {"model": CatalogResponse, "description": "The catalog snapshot."}},
)
def get_catalog(
    session: SessionDep,
    _: Annotated[Principal, Depends(metered(Allowance.READS, require_permission("catalog", "get")))],
) -> dict[str, Any]:
    """The manifest-fed catalog snapshot; global, the same bytes for every tenant."""
    return catalog_document(session)

"""Who may publish what (extensions E3): the permission ``event-publisher-service:publish`` and the
claim ``publish_event_types`` (a list of event types, or ``["*"]``), read from a verified bearer token.

Both surfaces call :func:`publisher_from_token` with the token they received (REST header, gRPC
metadata), so the hub's JWT rules (:mod:`hub.auth.tokens`) and the tenant rule hold on both.
The tenant is the token's and nothing else's.
"""

from __future__ import annotations

import asyncio
from dataclasses import dataclass
from typing import Any

from hub.auth.decision import ask_decision_service
from hub.auth.tokens import decode_token, principal_from_claims, require_tenant
from hub.config import get_settings
from hub.errors import MissingToken, PermissionDenied

PUBLISH_RESOURCE, PUBLISH_ACTION = "event-publisher-service", "publish"
PUBLISH_PERMISSION = f"{PUBLISH_RESOURCE}:{PUBLISH_ACTION}"
PUBLISH_TYPES_CLAIM = "publish_event_types"
ANY_TYPE = "*"


@dataclass(frozen=True, slots=True)
class Publisher:
    """A caller admitted to publish: its tenant, its identity, and the event types it may publish."""

    tenant_id: str
    subject: str
    event_types: frozenset[str]

    def may_publish(self, event_type: str) -> bool:
        """Whether the token's ``publish_event_types`` lists EVENT_TYPE (or ``*``)."""
        return ANY_TYPE in self.event_types or event_type in self.event_types


def publish_claims(permissions: list[str], event_types: list[str]) -> tuple[list[str], dict[str, Any]]:
    """PERMISSIONS with the publish permission added, and the claim listing EVENT_TYPES (``hub token``)."""
    return [*permissions, *([] if PUBLISH_PERMISSION in permissions else [PUBLISH_PERMISSION])], {
        PUBLISH_TYPES_CLAIM: list(event_types)}


def bearer_token(authorization: str | None) -> str:
    """The token of an ``Authorization: Bearer`` value; MissingToken when there is none."""
    scheme, _, token = (authorization or "").partition(" ")
    if scheme.lower() != "bearer" or not token.strip():
        raise MissingToken()
    return token.strip()


def _event_types(claims: dict[str, Any]) -> frozenset[str]:
    value = claims.get(PUBLISH_TYPES_CLAIM)
    if isinstance(value, str):
        value = [value]
    return frozenset(item for item in value or () if isinstance(item, str) and item)


async def _allowed(subject: str, tenant: str, permissions: frozenset[str]) -> bool:
    if get_settings().decision_service_url:  # N15: the service decides, off the event loop
        return await asyncio.to_thread(ask_decision_service, subject=subject, tenant=tenant,
                                       resource=PUBLISH_RESOURCE, action=PUBLISH_ACTION)
    return PUBLISH_PERMISSION in permissions


async def publisher_from_token(authorization: str | None) -> Publisher:
    """The publisher an ``Authorization`` value names: 401 when untrusted, 403 without the permission."""
    claims = decode_token(bearer_token(authorization))
    principal = principal_from_claims(claims)
    tenant = require_tenant(principal)
    if not await _allowed(principal.subject, tenant, principal.permissions):
        raise PermissionDenied(f"the credential lacks the permission {PUBLISH_PERMISSION}")
    return Publisher(tenant, principal.subject, _event_types(claims))

"""Who may publish what (extensions E3): the permission ``event-publisher-service:publish`` and the
claim ``publish_event_types`` (a list of event types, or ``["*"]``), read from a verified bearer token.

Both surfaces call :func:`publisher_from_token` with the token they received (REST header, gRPC
metadata), so the hub's JWT rules (:mod:`hub.auth.tokens`) and the tenant rule hold on both.
The tenant is the token's and nothing else's.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from hub.auth.credentials import allowed_off_loop, lists_type, permission_denied, read_credential
from hub.auth.tokens import require_tenant

PUBLISH_RESOURCE, PUBLISH_ACTION = "event-publisher-service", "publish"
PUBLISH_PERMISSION = f"{PUBLISH_RESOURCE}:{PUBLISH_ACTION}"
PUBLISH_TYPES_CLAIM = "publish_event_types"


@dataclass(frozen=True, slots=True)
class Publisher:
    """A caller admitted to publish: its tenant, its identity, and the event types it may publish."""

    tenant_id: str
    subject: str
    event_types: frozenset[str]

    def may_publish(self, event_type: str) -> bool:
        """Whether the token's ``publish_event_types`` lists EVENT_TYPE (or ``*``)."""
        return lists_type(self.event_types, event_type)


def publish_claims(permissions: list[str], event_types: list[str]) -> tuple[list[str], dict[str, Any]]:
    """PERMISSIONS with the publish permission added, and the claim listing EVENT_TYPES (``hub token``)."""
    return [*permissions, *([] if PUBLISH_PERMISSION in permissions else [PUBLISH_PERMISSION])], {
        PUBLISH_TYPES_CLAIM: list(event_types)}


async def publisher_from_token(authorization: str | None) -> Publisher:
    """The publisher an ``Authorization`` value names: 401 when untrusted, 403 without the permission."""
    credential = read_credential(authorization)
    principal = credential.principal
    tenant = require_tenant(principal)
    event_types = credential.event_types(PUBLISH_TYPES_CLAIM)  # a malformed claim is 401, ahead of any 403
    if not await allowed_off_loop(principal, PUBLISH_RESOURCE, PUBLISH_ACTION):
        raise permission_denied(PUBLISH_PERMISSION)
    return Publisher(tenant, principal.subject, event_types)

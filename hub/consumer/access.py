"""Who may consume what (E3): the seed's durable-queue permissions and the ``consume_event_types`` claim.

Both surfaces call :func:`consumer_from_token` with the token they received (REST header, gRPC
metadata). Non-durable streams need only a valid token of the tenant; each durable-queue operation
needs its permission; dead-letter triage needs ``inspect-and-replay-all-dlq``. Every permission is
decided where the REST routes and the publisher decide theirs (:func:`hub.auth.credentials.allowed`):
by the external decision service when one is configured (N15), else by the token's permissions. Every event a stream
sends is checked against the claim (default ``["*"]``): an event the principal may not see is never sent.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from hub.auth.credentials import ANY_TYPE, allowed_off_loop, lists_type, permission_denied, read_credential
from hub.auth.tokens import Principal, require_tenant

RESOURCE = "event-consumer-service"
CREATE = f"{RESOURCE}:create-durable-queues"
CONSUME = f"{RESOURCE}:consume-durable-queues"
DELETE = f"{RESOURCE}:delete-durable-queues"
TRIAGE = f"{RESOURCE}:inspect-and-replay-all-dlq"
DURABLE_PERMISSIONS = (CREATE, CONSUME, DELETE)
CONSUME_TYPES_CLAIM = "consume_event_types"


@dataclass(frozen=True, slots=True)
class Consumer:
    """A caller admitted to the consumer service: its tenant, identity, permissions and visible types."""

    tenant_id: str
    principal: Principal
    event_types: frozenset[str]

    @property
    def subject(self) -> str:
        return self.principal.subject

    def may_see(self, event_type: str) -> bool:
        return lists_type(self.event_types, event_type)

    async def require(self, permission: str) -> None:
        """Refuse (403) unless the decision point allows PERMISSION (``resource:action``)."""
        await require_allowed(self.principal, permission)


async def require_allowed(principal: Principal, permission: str) -> None:
    """403 unless PRINCIPAL may do PERMISSION: asks the decision service when configured (N15)."""
    resource, _, action = permission.partition(":")
    if not await allowed_off_loop(principal, resource, action):
        raise permission_denied(permission)


def consumer_from_token(authorization: str | None) -> Consumer:
    """The consumer an ``Authorization`` value names: 401 when untrusted or without a tenant."""
    credential = read_credential(authorization)
    principal = credential.principal
    return Consumer(require_tenant(principal), principal, credential.event_types(CONSUME_TYPES_CLAIM, [ANY_TYPE]))


async def triage_operator(authorization: str | None) -> str:
    """The subject of a caller allowed to triage the dead-letter queue; 401 / 403 otherwise."""
    principal = read_credential(authorization).principal
    await require_allowed(principal, TRIAGE)
    return principal.subject


def consumer_claims(permissions: list[str], event_types: list[str] | None) -> tuple[list[str], dict[str, Any]]:
    """PERMISSIONS with the three durable-queue permissions added, and the claim (``hub token``)."""
    granted = [*permissions, *(p for p in DURABLE_PERMISSIONS if p not in permissions)]
    return granted, ({CONSUME_TYPES_CLAIM: list(event_types)} if event_types else {})

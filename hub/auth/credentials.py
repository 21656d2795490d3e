"""A caller's bearer credential, read one way for every surface that admits by token.

REST routes (:mod:`hub.auth.deps`), the publisher and the consumer service (REST and gRPC) all take
the ``Authorization`` value they received, verify it (:mod:`hub.auth.tokens`), and ask the same
questions of it: which principal, which event types a list claim names, whether a permission is held.
"""

from __future__ import annotations

import asyncio
from dataclasses import dataclass, field
from typing import Any

from hub.auth.decision import ask_decision_service
from hub.auth.tokens import Principal, principal_from_claims, verified_token
from hub.config import get_settings
from hub.errors import InvalidToken, MissingToken, PermissionDenied

ANY_TYPE = "*"  # in an event-type list claim: every type


@dataclass(frozen=True, slots=True)
class Credential:
    """A verified token: the principal it names and its claims (for claims the principal does not read).

    One credential serves every request that carries its token (N66): read its claims, never change them.
    """

    principal: Principal
    claims: dict[str, Any]
    # event_types' answers by claim: a credential is reused for its token's requests (N66)
    _types: dict[tuple[str, tuple[str, ...] | None], frozenset[str]] = field(
        default_factory=dict, compare=False, repr=False)

    def event_types(self, claim: str, default: list[str] | None = None) -> frozenset[str]:
        """The non-empty strings the list claim CLAIM names: DEFAULT when absent, none when null.

        A lone string counts as a list of one. Any other shape (a number, an object, a list holding a
        non-string) is InvalidToken: the credential says nothing this hub can read as event types.
        """
        key = (claim, None if default is None else tuple(default))
        found = self._types.get(key)
        if found is None:
            found = self._types[key] = self._read_types(claim, default)
        return found

    def _read_types(self, claim: str, default: list[str] | None) -> frozenset[str]:
        value = self.claims.get(claim, default)
        if isinstance(value, str):
            value = [value]
        elif value is None:
            value = []
        if not isinstance(value, list) or not all(isinstance(item, str) for item in value):
            raise InvalidToken(f"the token's {claim} claim is not a list of event types")
        return frozenset(item for item in value if item)


def lists_type(event_types: frozenset[str], event_type: str) -> bool:
    """Whether a list claim read by :meth:`Credential.event_types` names EVENT_TYPE (or ``*``)."""
    return ANY_TYPE in event_types or event_type in event_types


def bearer_token(authorization: str | None) -> str:
    """The token of an ``Authorization: Bearer`` value; MissingToken when there is none."""
    scheme, _, token = (authorization or "").partition(" ")
    if scheme.lower() != "bearer" or not token.strip():
        raise MissingToken()
    return token.strip()


CREDENTIAL = "credential"  # the key of a token's credential among its verified entry's derived values


def read_credential(authorization: str | None, *, query_token: str | None = None) -> Credential:
    """The verified credential a request carries; 401 when absent or untrusted.

    The ``Authorization: Bearer`` value wins; QUERY_TOKEN (E9's ``token`` query parameter, for browser
    WebSocket clients that cannot set headers) is read only when no bearer value was sent.
    """
    try:
        token = bearer_token(authorization)
    except MissingToken:
        if not query_token:
            raise
        token = query_token
    settings = get_settings()
    entry = verified_token(token, settings)
    credential = entry.derived.get(CREDENTIAL)
    if credential is None:  # first use of this token (N66): read its principal and claims once
        credential = entry.derived[CREDENTIAL] = Credential(principal_from_claims(entry.claims, settings),
                                                            dict(entry.claims))
    return credential


def permission_denied(permission: str) -> PermissionDenied:
    """The 403 of a credential without PERMISSION, worded alike on every surface."""
    return PermissionDenied(f"the credential lacks the permission {permission}")


def allowed(principal: Principal, resource: str, action: str) -> bool:
    """Whether PRINCIPAL may do ACTION on RESOURCE: the decision service says when configured (N15)."""
    if get_settings().decision_service_url:
        return ask_decision_service(subject=principal.subject, tenant=principal.tenant_id,
                                    resource=resource, action=action)
    return f"{resource}:{action}" in principal.permissions


async def allowed_off_loop(principal: Principal, resource: str, action: str) -> bool:
    """:func:`allowed` for a coroutine: a call to the decision service blocks, so it runs on a thread."""
    if get_settings().decision_service_url:
        return await asyncio.to_thread(allowed, principal, resource, action)
    return allowed(principal, resource, action)

"""FastAPI dependencies: authenticate the bearer token, then check ``resource:action``."""

from __future__ import annotations

from collections.abc import Callable
from typing import Annotated

from fastapi import Depends, Request

from hub.auth.decision import ask_decision_service
from hub.auth.tokens import Principal, decode_token, principal_from_claims, require_tenant
from hub.config import get_settings
from hub.errors import Forbidden, MissingToken, PermissionDenied


def authenticate(request: Request) -> Principal:
    """The caller's principal from ``Authorization: Bearer``; 401 when absent or untrusted."""
    header = request.headers.get("authorization", "")
    scheme, _, token = header.partition(" ")
    if not header or scheme.lower() != "bearer" or not token.strip():
        raise MissingToken()
    principal = principal_from_claims(decode_token(token.strip()))
    request.state.principal = principal
    return principal


def _allowed(principal: Principal, resource: str, action: str) -> bool:
    if get_settings().decision_service_url:
        return ask_decision_service(
            subject=principal.subject, tenant=principal.tenant_id, resource=resource, action=action
        )
    return f"{resource}:{action}" in principal.permissions


def require_permission(resource: str, action: str) -> Callable[..., Principal]:
    """A dependency that admits a tenant principal holding ``resource:action``."""

    def dependency(principal: Annotated[Principal, Depends(authenticate)]) -> Principal:
        require_tenant(principal)
        if not _allowed(principal, resource, action):
            raise PermissionDenied(f"the credential lacks the permission {resource}:{action}")
        return principal

    dependency.__name__ = f"require_{resource}_{action}"
    return dependency


def require_operator(principal: Annotated[Principal, Depends(authenticate)]) -> Principal:
    """Admit only an operator (cross-tenant) credential."""
    if get_settings().operator_scope not in principal.scopes:
        raise Forbidden("this route needs the operator scope")
    return principal

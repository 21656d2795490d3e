"""FastAPI dependencies: authenticate the bearer token, then check ``resource:action``."""

from __future__ import annotations

from collections.abc import Callable
from typing import Annotated

from fastapi import Depends, Request

from hub.auth.credentials import allowed, permission_denied, read_credential
from hub.auth.tokens import Principal, require_tenant
from hub.config import get_settings
from hub.errors import Forbidden


def authenticate(request: Request) -> Principal:
    """The caller's principal from ``Authorization: Bearer``; 401 when absent or untrusted."""
    principal = read_credential(request.headers.get("authorization")).principal
    request.state.principal = principal
    return principal


def require_permission(resource: str, action: str) -> Callable[..., Principal]:
    """A dependency that admits a tenant principal holding ``resource:action``."""

    def dependency(principal: Annotated[Principal, Depends(authenticate)]) -> Principal:
        require_tenant(principal)
        if not allowed(principal, resource, action):
            raise permission_denied(f"{resource}:{action}")
        return principal

    dependency.__name__ = f"require_{resource}_{action}"
    return dependency


def require_operator(principal: Annotated[Principal, Depends(authenticate)]) -> Principal:
    """Admit only an operator (cross-tenant) credential."""
    if get_settings().operator_scope not in principal.scopes:
        raise Forbidden("this route needs the operator scope")
    return principal

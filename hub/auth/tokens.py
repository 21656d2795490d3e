"""JWT verification (HS256 dev secret, RS256/ES256 by PEM or JWKS) and dev-token minting."""

from __future__ import annotations

import threading
import time
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any

import jwt

from hub.config import Settings, get_settings
from hub.errors import InvalidToken, Unauthorized

ASYMMETRIC = {"RS256", "ES256"}
EVENT_BROKER_CLAIM = "event_broker"
VERIFIED_TOKENS_KEPT = 10_000  # distinct live tokens remembered per process; the oldest goes first


@dataclass(frozen=True)
class Principal:
    """Who is calling, as the verified token says."""

    subject: str
    tenant_id: str | None
    permissions: frozenset[str] = field(default_factory=frozenset)
    scopes: frozenset[str] = field(default_factory=frozenset)
    delegated_scope: str | None = None
    nature: tuple[str, ...] | None = None
    event_broker: Any = None  # the seed-003 claim (E3), read by hub.broker.access


@lru_cache
def _jwks_client(url: str, lifespan: int) -> jwt.PyJWKClient:
    return jwt.PyJWKClient(url, cache_keys=True, lifespan=lifespan)


def _verification_key(token: str, algorithm: str, settings: Settings) -> Any:
    if algorithm == "HS256":
        return settings.jwt_hs256_secret.get_secret_value()
    if settings.jwt_jwks_url:
        client = _jwks_client(settings.jwt_jwks_url, settings.jwt_jwks_cache_seconds)
        return client.get_signing_key_from_jwt(token).key
    if settings.jwt_public_key_pem:
        return settings.jwt_public_key_pem
    raise InvalidToken("no verification key is configured for this algorithm")


def _verify(token: str, settings: Settings) -> dict[str, Any]:
    """The claims of ``token`` once its signature and claims are checked; InvalidToken otherwise."""
    try:
        header = jwt.get_unverified_header(token)
    except jwt.PyJWTError as exc:
        raise InvalidToken("the token is malformed") from exc
    algorithm = header.get("alg")
    if not isinstance(algorithm, str) or algorithm not in settings.jwt_algorithms:
        raise InvalidToken("the token's signature algorithm is not accepted")
    try:
        key = _verification_key(token, algorithm, settings)
        return jwt.decode(
            token, key, algorithms=[algorithm], audience=settings.jwt_audience or None,
            issuer=settings.jwt_issuer or None, leeway=settings.jwt_leeway_seconds,
            options={"require": ["exp"]},
        )
    except jwt.ExpiredSignatureError as exc:
        raise InvalidToken("the token has expired") from exc
    except jwt.InvalidAudienceError as exc:
        raise InvalidToken("the token is not meant for this service") from exc
    except jwt.InvalidIssuerError as exc:
        raise InvalidToken("the token's issuer is not trusted") from exc
    except (jwt.PyJWTError, ValueError) as exc:
        raise InvalidToken("the token's signature or claims are invalid") from exc


@dataclass(slots=True)
class VerifiedToken:
    """A token whose signature and claims were checked, under the settings object that checked them.

    ``claims`` is never handed out as it is (a reader gets a copy or reads it); ``derived`` keeps what a
    reader builds from the claims (the caller's credential, :mod:`hub.auth.credentials`), so one entry,
    one expiry and one eviction serve both (N66).
    """

    settings: Settings
    claims: dict[str, Any]
    until: float
    derived: dict[str, Any] = field(default_factory=dict)


class _VerifiedTokens:
    """Tokens verified lately, by the token's exact text (docs/contract-notes.md N61).

    A client sends the same token with every request; checking its signature again each time cost
    more CPU than a whole publish. An entry holds for ``jwt_verified_cache_seconds`` and never past the
    token's ``exp`` (plus the leeway), and only under the settings object it was verified with, so new
    settings (a rotated secret, another audience) check every token afresh.
    """

    def __init__(self, size: int) -> None:
        self._size = size
        self._lock = threading.Lock()
        self._entries: dict[str, VerifiedToken] = {}

    def get(self, token: str, settings: Settings, now: float) -> VerifiedToken | None:
        entry = self._entries.get(token)
        if entry is None or entry.settings is not settings or now >= entry.until:
            return None
        return entry

    def put(self, token: str, settings: Settings, claims: dict[str, Any], now: float) -> VerifiedToken:
        until = min(now + settings.jwt_verified_cache_seconds, float(claims["exp"]) + settings.jwt_leeway_seconds)
        entry = VerifiedToken(settings, claims, until)
        if settings.jwt_verified_cache_seconds > 0:
            with self._lock:
                if token not in self._entries and len(self._entries) >= self._size:
                    del self._entries[next(iter(self._entries))]
                self._entries[token] = entry
        return entry


_verified = _VerifiedTokens(VERIFIED_TOKENS_KEPT)


def verified_token(token: str, settings: Settings | None = None) -> VerifiedToken:
    """``token`` verified (or its entry from the last ``jwt_verified_cache_seconds``); InvalidToken when
    it is untrustworthy."""
    settings = settings or get_settings()
    now = time.time()
    entry = _verified.get(token, settings, now)
    if entry is None:
        entry = _verified.put(token, settings, _verify(token, settings), now)
    return entry


def decode_token(token: str, settings: Settings | None = None) -> dict[str, Any]:
    """The verified claims of ``token`` (a copy: a caller may not change what the next one reads)."""
    return dict(verified_token(token, settings).claims)


def _string_list(value: Any) -> list[str]:
    if isinstance(value, str):
        return [value]
    if isinstance(value, list):
        return [item for item in value if isinstance(item, str)]
    return []


def principal_from_claims(claims: dict[str, Any], settings: Settings | None = None) -> Principal:
    settings = settings or get_settings()
    tenant = claims.get(settings.claim_tenant)
    scope = claims.get(settings.claim_scope, "")
    nature = claims.get(settings.claim_nature)
    delegated = claims.get(settings.claim_delegated_scope)
    return Principal(
        subject=str(claims.get("sub", "")),
        tenant_id=tenant if isinstance(tenant, str) and tenant.strip() else None,
        permissions=frozenset(_string_list(claims.get(settings.claim_permissions))),
        scopes=frozenset(scope.split() if isinstance(scope, str) else _string_list(scope)),
        delegated_scope=delegated if isinstance(delegated, str) and delegated else None,
        nature=tuple(_string_list(nature)) if nature is not None else None,
        event_broker=claims.get(EVENT_BROKER_CLAIM),
    )


def require_tenant(principal: Principal) -> str:
    if principal.tenant_id is None:
        raise Unauthorized("the token carries no tenant")
    return principal.tenant_id


def mint_token(
    *,
    tenant: str | None,
    permissions: list[str],
    operator: bool = False,
    delegated_scope: str | None = None,
    nature: list[str] | None = None,
    event_broker: dict[str, Any] | None = None,
    ttl_seconds: int = 3600,
    subject: str = "dev-user",
    settings: Settings | None = None,
    claims: dict[str, Any] | None = None,
) -> str:
    """An HS256 token that this hub accepts (for local use and tests); CLAIMS adds claims of its own."""
    settings = settings or get_settings()
    now = int(time.time())
    claims = {
        **(claims or {}), "sub": subject, "iat": now, "nbf": now - 1, "exp": now + ttl_seconds,
        "iss": settings.jwt_issuer, "aud": settings.jwt_audience,
        settings.claim_permissions: permissions,
    }
    if tenant:
        claims[settings.claim_tenant] = tenant
    if operator:
        claims[settings.claim_scope] = settings.operator_scope
    if delegated_scope:
        claims[settings.claim_delegated_scope] = delegated_scope
    if nature is not None:
        claims[settings.claim_nature] = nature
    if event_broker is not None:
        claims[EVENT_BROKER_CLAIM] = event_broker
    return jwt.encode(claims, settings.jwt_hs256_secret.get_secret_value(), algorithm="HS256")
